//! `match` patterns as CPython 3.12 prints them.

use super::reprs::push_str_repr;
use super::Writer;
use ruff_python_ast::{self as ast, Pattern};

impl Writer {
    pub(super) fn pattern(&mut self, pattern: &Pattern) {
        if self.enter() {
            self.pattern_node(pattern);
            self.leave();
        }
    }

    fn pattern_node(&mut self, pattern: &Pattern) {
        match pattern {
            Pattern::MatchValue(value) => {
                self.open("MatchValue");
                self.expr_field("value", &value.value);
                self.close();
            }
            Pattern::MatchSingleton(singleton) => {
                // `value` is a required field, so `None` is printed here.
                self.open("MatchSingleton");
                self.key("value");
                self.out.push_str(match singleton.value {
                    ast::Singleton::None => "None",
                    ast::Singleton::True => "True",
                    ast::Singleton::False => "False",
                });
                self.close();
            }
            Pattern::MatchSequence(sequence) => {
                self.open("MatchSequence");
                self.list("patterns", &sequence.patterns, Self::pattern);
                self.close();
            }
            Pattern::MatchMapping(mapping) => {
                self.open("MatchMapping");
                self.exprs_field("keys", &mapping.keys);
                self.list("patterns", &mapping.patterns, Self::pattern);
                self.opt_str_field("rest", mapping.rest.as_deref());
                self.close();
            }
            Pattern::MatchClass(class) => {
                let arguments = &class.arguments;
                self.open("MatchClass");
                self.expr_field("cls", &class.cls);
                self.list("patterns", &arguments.patterns, Self::pattern);
                self.list("kwd_attrs", &arguments.keywords, |w, keyword| {
                    push_str_repr(&mut w.out, &keyword.attr);
                });
                self.list("kwd_patterns", &arguments.keywords, |w, keyword| {
                    w.pattern(&keyword.pattern);
                });
                self.close();
            }
            Pattern::MatchStar(star) => {
                self.open("MatchStar");
                self.opt_str_field("name", star.name.as_deref());
                self.close();
            }
            Pattern::MatchAs(match_as) => {
                self.open("MatchAs");
                if let Some(inner) = &match_as.pattern {
                    self.key("pattern");
                    self.pattern(inner);
                }
                self.opt_str_field("name", match_as.name.as_deref());
                self.close();
            }
            Pattern::MatchOr(or) => {
                self.open("MatchOr");
                self.list("patterns", &or.patterns, Self::pattern);
                self.close();
            }
        }
    }
}
