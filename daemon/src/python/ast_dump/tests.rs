use super::*;

fn first_function(source: &str) -> ast::StmtFunctionDef {
    let parsed = ruff_python_parser::parse_module(source).expect("test source parses");
    match parsed.into_syntax().body.into_iter().next() {
        Some(Stmt::FunctionDef(def)) => def,
        other => panic!("expected a function definition, got {other:?}"),
    }
}

fn dump(source: &str) -> String {
    dump_function(&first_function(source))
}

/// The dump of `def f():` with the given body statement dumps.
fn plain(body: &str) -> String {
    format!(
        "FunctionDef(name='f', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], \
             kw_defaults=[], defaults=[]), body=[{body}], decorator_list=[], type_params=[])"
    )
}

#[test]
fn reference_vector() {
    let source = "@function_tool\ndef lookup_order(order_id: str) -> dict:\n    \"\"\"Look up.\"\"\"\n    return {\"id\": order_id}\n";
    let def = first_function(source);
    assert_eq!(
            dump_function(&def),
            "FunctionDef(name='lookup_order', args=arguments(posonlyargs=[], args=[arg(arg='order_id', \
             annotation=Name(id='str', ctx=Load()))], kwonlyargs=[], kw_defaults=[], defaults=[]), \
             body=[Return(value=Dict(keys=[Constant(value='id')], values=[Name(id='order_id', ctx=Load())]))], \
             decorator_list=[Name(id='function_tool', ctx=Load())], returns=Name(id='dict', ctx=Load()), \
             type_params=[])"
        );
    assert_eq!(
        implementation_sha256(&def),
        "35fb9c9abe9f29d6f701854e34728af1f57a9d036a84168c8f5f3548c8880147"
    );
}

#[test]
fn only_a_leading_plain_string_is_a_docstring() {
    assert_eq!(dump("def f():\n    'doc' 'more'\n"), plain(""));
    assert_eq!(
        dump("def f():\n    f'doc'\n"),
        plain("Expr(value=JoinedStr(values=[Constant(value='doc')]))")
    );
    assert_eq!(
        dump("def f():\n    pass\n    'not a docstring'\n"),
        plain("Pass(), Expr(value=Constant(value='not a docstring'))")
    );
}

#[test]
fn string_reprs_follow_python() {
    assert_eq!(
            dump("def f():\n    pass\n    return \"it's\", 'say \"hi\"\\n', u'\\x00\\u200b\\U0001F600é'\n"),
            plain(
                "Pass(), Return(value=Tuple(elts=[Constant(value=\"it's\"), \
                 Constant(value='say \"hi\"\\n'), Constant(value='\\x00\\u200b😀é', kind='u')], ctx=Load()))"
            )
        );
    assert_eq!(
        dump("def f():\n    return b'\\x00\\'' b'\"'\n"),
        plain("Return(value=Constant(value=b'\\x00\\'\"'))")
    );
}

#[test]
fn numbers_follow_python_repr() {
    assert_eq!(
            dump("def f():\n    return (1e16, 1e-7, 0.1, 1.5e300, 1e999, 2.5j, 1j, -1, 0xFFFFFFFFFFFFFFFFFF, 1_000.0)\n"),
            plain(
                "Return(value=Tuple(elts=[Constant(value=1e+16), Constant(value=1e-07), \
                 Constant(value=0.1), Constant(value=1.5e+300), Constant(value=inf), \
                 Constant(value=2.5j), Constant(value=1j), UnaryOp(op=USub(), operand=Constant(value=1)), \
                 Constant(value=4722366482869645213695), Constant(value=1000.0)], ctx=Load()))"
            )
        );
}

#[test]
fn fstrings_are_joined_like_cpython_312() {
    assert_eq!(
            dump("def f():\n    return 'a' f'b{x!r:>{w}}' f'{y=}' u'c'\n"),
            plain(
                "Return(value=JoinedStr(values=[Constant(value='ab'), FormattedValue(value=Name(id='x', \
                 ctx=Load()), conversion=114, format_spec=JoinedStr(values=[Constant(value='>'), \
                 FormattedValue(value=Name(id='w', ctx=Load()), conversion=-1), Constant(value='')])), \
                 Constant(value='y='), FormattedValue(value=Name(id='y', ctx=Load()), conversion=114), \
                 Constant(value='c', kind='u')]))"
            )
        );
}

#[test]
fn async_def_with_all_parameter_kinds() {
    assert_eq!(
            dump("async def g(a, /, b=1, *c, d, e=2, **f):\n    await a\n"),
            "AsyncFunctionDef(name='g', args=arguments(posonlyargs=[arg(arg='a')], args=[arg(arg='b')], \
             vararg=arg(arg='c'), kwonlyargs=[arg(arg='d'), arg(arg='e')], kw_defaults=[None, \
             Constant(value=2)], kwarg=arg(arg='f'), defaults=[Constant(value=1)]), \
             body=[Expr(value=Await(value=Name(id='a', ctx=Load())))], decorator_list=[], type_params=[])"
        );
}

#[test]
fn nesting_beyond_cpythons_recursion_limit_is_cut_off() {
    let source = format!("def f():\n    return x{}\n", ".a".repeat(MAX_DEPTH + 100));
    let text = dump(&source);
    assert!(text.starts_with("FunctionDef(name='f', "));
    assert!(text.contains("Attribute(value=..., attr='a', ctx=Load())"));
}

#[test]
fn crlf_sources_need_normalizing_like_cpython() {
    let source = "def f():\r\n    return '''a\r\nb''', '\\r'\r\n";
    assert_eq!(
        dump(&normalize_newlines(source)),
        plain(
            "Return(value=Tuple(elts=[Constant(value='a\\nb'), Constant(value='\\r')], \
                 ctx=Load()))"
        )
    );
}

#[test]
fn json_string_literal_is_ascii_only() {
    assert_eq!(
        json_string_literal("a\"\\\n\r\t\u{8}\u{c}\u{1}\u{7f}é😀"),
        "\"a\\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u007f\\u00e9\\ud83d\\ude00\""
    );
}

#[test]
fn the_streamed_digest_is_the_digest_of_the_literal() {
    use sha2::{Digest, Sha256};
    for text in [
        "",
        "Module(body=[])",
        "a\"\\\n\r\t\u{8}\u{c}\u{1}\u{7f}é😀 tail",
        "\"leading and trailing\\",
        "only plain ascii text",
    ] {
        let whole = Sha256::digest(json_string_literal(text).as_bytes());
        let hex: String = whole.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(sha256_of_json_string(text), hex, "{text:?}");
    }
}

#[test]
fn a_function_drained_in_chunks_has_the_digest_of_its_whole_dump() {
    // Longer than the writer's drain size, with text to escape on both
    // sides of the drains (quotes, backslashes, non-ASCII, astral chars).
    let mut source = String::from("def long():\n");
    for line in 0..2_000 {
        source.push_str(&format!("    x{line} = \"it's é 😀 \\\\ {line}\"\n"));
    }
    let def = first_function(&source);
    let whole = dump_function(&def);
    assert!(whole.len() > 4 * DRAIN_BYTES, "{} bytes", whole.len());
    assert_eq!(implementation_sha256(&def), sha256_of_json_string(&whole));
}
