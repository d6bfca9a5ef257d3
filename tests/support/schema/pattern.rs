//! The regular-expression subset `pattern` takes: literals, `.`, `\d`,
//! bracket classes (ranges, negation), groups `( … )` without
//! alternation, the quantifiers `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}` on
//! any atom or group, and the anchors `^`/`$` at the ends. A pattern
//! outside it is an error, never a silent pass. As JSON Schema says, a
//! pattern without `^` may match anywhere in the string.

/// What one position of a pattern accepts.
#[derive(Debug, Clone)]
enum Atom {
    Any,
    Char(char),
    /// Inclusive ranges; `negated` accepts what they do not.
    Class {
        ranges: Vec<(char, char)>,
        negated: bool,
    },
    /// A parenthesised sequence, repeated as one atom.
    Group(Vec<Piece>),
}

impl Atom {
    /// Whether a one-character atom accepts `c` (a group is never asked).
    fn accepts(&self, c: char) -> bool {
        match self {
            Atom::Any => c != '\n',
            Atom::Char(want) => c == *want,
            Atom::Class { ranges, negated } => {
                ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated
            }
            Atom::Group(_) => false,
        }
    }
}

#[derive(Debug, Clone)]
struct Piece {
    atom: Atom,
    min: usize,
    max: usize,
}

/// A compiled pattern of the supported subset.
#[derive(Debug, Clone)]
pub struct Pattern {
    start: bool,
    end: bool,
    pieces: Vec<Piece>,
}

impl Pattern {
    pub fn parse(pattern: &str) -> Result<Pattern, String> {
        let mut chars: Vec<char> = pattern.chars().collect();
        let start = chars.first() == Some(&'^');
        if start {
            chars.remove(0);
        }
        let end =
            chars.last() == Some(&'$') && !(chars.len() >= 2 && chars[chars.len() - 2] == '\\');
        if end {
            chars.pop();
        }
        let mut parser = Parser {
            pattern,
            chars,
            at: 0,
        };
        let pieces = parser.sequence(0)?;
        Ok(Pattern { start, end, pieces })
    }

    pub fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let last_start = if self.start { 0 } else { chars.len() };
        let end = self.end;
        (0..=last_start)
            .any(|from| match_pieces(&self.pieces, &chars, from, &|at| !end || at == chars.len()))
    }
}

struct Parser<'p> {
    pattern: &'p str,
    chars: Vec<char>,
    at: usize,
}

impl Parser<'_> {
    fn unsupported(&self, what: &str) -> String {
        format!(
            "pattern {:?} uses {what}, which this validator does not implement",
            self.pattern
        )
    }

    /// Pieces up to the end, or to the `)` closing a group at `depth` > 0.
    fn sequence(&mut self, depth: usize) -> Result<Vec<Piece>, String> {
        let mut pieces = Vec::new();
        while let Some(&c) = self.chars.get(self.at) {
            self.at += 1;
            let atom = match c {
                ')' if depth > 0 => return Ok(pieces),
                ')' => {
                    return Err(format!(
                        "pattern {:?} closes a group it never opened",
                        self.pattern
                    ))
                }
                '(' => {
                    if self.chars.get(self.at) == Some(&'?') {
                        return Err(self.unsupported("a group with options"));
                    }
                    Atom::Group(self.sequence(depth + 1)?)
                }
                '|' => return Err(self.unsupported("alternation")),
                '.' => Atom::Any,
                '\\' => {
                    let Some(&e) = self.chars.get(self.at) else {
                        return Err(self.unsupported("a trailing backslash"));
                    };
                    self.at += 1;
                    escaped(e).ok_or_else(|| self.unsupported(&format!("the escape \\{e}")))?
                }
                '[' => self.class()?,
                '^' | '$' => return Err(self.unsupported("an anchor inside the pattern")),
                '*' | '+' | '?' | '{' => {
                    return Err(format!(
                        "pattern {:?} has a quantifier with nothing to repeat",
                        self.pattern
                    ))
                }
                other => Atom::Char(other),
            };
            let (min, max) = self.quantifier()?;
            pieces.push(Piece { atom, min, max });
        }
        if depth > 0 {
            return Err(format!("pattern {:?} has an unclosed group", self.pattern));
        }
        Ok(pieces)
    }

    /// A bracket class, after its `[`.
    fn class(&mut self) -> Result<Atom, String> {
        let chars = &self.chars;
        let mut i = self.at;
        let mut ranges = Vec::new();
        let negated = chars.get(i) == Some(&'^');
        if negated {
            i += 1;
        }
        let mut closed = false;
        while i < chars.len() {
            let mut lo = chars[i];
            i += 1;
            if lo == ']' && !ranges.is_empty() {
                closed = true;
                break;
            }
            if lo == '\\' {
                let Some(&e) = chars.get(i) else { break };
                i += 1;
                match escaped(e) {
                    Some(Atom::Char(ch)) => lo = ch,
                    Some(Atom::Class { ranges: more, .. }) => {
                        ranges.extend(more);
                        continue;
                    }
                    _ => return Err(self.unsupported(&format!("the escape \\{e}"))),
                }
            }
            if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|c| *c != ']') {
                let hi = chars[i + 1];
                if hi == '\\' {
                    return Err(self.unsupported("an escaped range end"));
                }
                i += 2;
                if hi < lo {
                    return Err(format!("pattern {:?} has a reversed range", self.pattern));
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        if !closed {
            return Err(format!("pattern {:?} has an unclosed class", self.pattern));
        }
        self.at = i;
        Ok(Atom::Class { ranges, negated })
    }

    /// The quantifier after an atom, `(1, 1)` when there is none.
    fn quantifier(&mut self) -> Result<(usize, usize), String> {
        let (min, max) = match self.chars.get(self.at) {
            Some('*') => {
                self.at += 1;
                (0, usize::MAX)
            }
            Some('+') => {
                self.at += 1;
                (1, usize::MAX)
            }
            Some('?') => {
                self.at += 1;
                (0, 1)
            }
            Some('{') => {
                let close = self.chars[self.at..]
                    .iter()
                    .position(|c| *c == '}')
                    .ok_or_else(|| format!("pattern {:?} has an unclosed {{", self.pattern))?;
                let inside: String = self.chars[self.at + 1..self.at + close].iter().collect();
                self.at += close + 1;
                let number = |s: &str| {
                    s.trim()
                        .parse::<usize>()
                        .map_err(|_| self.unsupported(&format!("the repetition {{{inside}}}")))
                };
                match inside.split_once(',') {
                    None => {
                        let n = number(&inside)?;
                        (n, n)
                    }
                    Some((lo, "")) => (number(lo)?, usize::MAX),
                    Some((lo, hi)) => (number(lo)?, number(hi)?),
                }
            }
            _ => (1, 1),
        };
        if matches!(self.chars.get(self.at), Some('?' | '+')) && (min, max) != (1, 1) {
            return Err(self.unsupported("a lazy or possessive quantifier"));
        }
        if min > max {
            return Err(format!(
                "pattern {:?} has a repetition with min > max",
                self.pattern
            ));
        }
        Ok((min, max))
    }
}

/// Whether `pieces` match from `at` on with `rest` accepting where they
/// end: one-character atoms take their longest run and give back (no
/// recursion per character), a group is tried repetition by repetition.
fn match_pieces(pieces: &[Piece], chars: &[char], at: usize, rest: &dyn Fn(usize) -> bool) -> bool {
    let Some((piece, after)) = pieces.split_first() else {
        return rest(at);
    };
    let then = |end: usize| match_pieces(after, chars, end, rest);
    if let Atom::Group(inner) = &piece.atom {
        return match_group(inner, piece.min, piece.max, 0, chars, at, &then);
    }
    let mut count = 0;
    while count < piece.max && at + count < chars.len() && piece.atom.accepts(chars[at + count]) {
        count += 1;
    }
    count >= piece.min && (piece.min..=count).rev().any(|n| then(at + n))
}

/// `inner` repeated between `min` and `max` times from `at`, greedily.
fn match_group(
    inner: &[Piece],
    min: usize,
    max: usize,
    done: usize,
    chars: &[char],
    at: usize,
    then: &dyn Fn(usize) -> bool,
) -> bool {
    // One more repetition, unless it would match nothing (a loop).
    let more = done < max
        && match_pieces(inner, chars, at, &|end| {
            end != at && match_group(inner, min, max, done + 1, chars, end, then)
        });
    more || (done >= min && then(at))
}

/// The atom `\e` stands for: `\d`, or an escaped punctuation character.
fn escaped(e: char) -> Option<Atom> {
    match e {
        'd' => Some(Atom::Class {
            ranges: vec![('0', '9')],
            negated: false,
        }),
        'n' => Some(Atom::Char('\n')),
        't' => Some(Atom::Char('\t')),
        c if c.is_ascii_punctuation() => Some(Atom::Char(c)),
        _ => None,
    }
}
