//! The client's documentation for a shell and for `man`, generated from
//! the same clap definitions that parse the flags, so neither can drift
//! from what the client accepts.

use clap::CommandFactory;

/// A completion script for `shell`.
pub fn completions<C: CommandFactory>(shell: clap_complete::Shell) -> String {
    let mut command = C::command();
    let name = command.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, name, &mut script);
    String::from_utf8_lossy(&script).into_owned()
}

/// The manual page, as roff: the client's, or with `subcommand` that
/// subcommand's own (`shipgate-client-diff(1)`).
pub fn man_page<C: CommandFactory>(subcommand: Option<&str>) -> Result<String, String> {
    let command = C::command();
    let man = match subcommand {
        None => clap_mangen::Man::new(command),
        Some(name) => {
            let Some(sub) = command.find_subcommand(name) else {
                let known: Vec<&str> = command.get_subcommands().map(|s| s.get_name()).collect();
                return Err(format!(
                    "no subcommand {name:?}; the pages are {}",
                    known.join(", ")
                ));
            };
            let title = format!("{}-{}", command.get_name(), sub.get_name());
            clap_mangen::Man::new(sub.clone()).title(title)
        }
    };
    let mut page = Vec::new();
    man.render(&mut page)
        .map_err(|err| format!("cannot render the manual page: {err}"))?;
    Ok(String::from_utf8_lossy(&page).into_owned())
}

#[cfg(test)]
mod tests {
    use super::{completions, man_page};
    use crate::Cli;

    #[test]
    fn completions_know_the_subcommands_and_their_flags() {
        let bash = completions::<Cli>(clap_complete::Shell::Bash);
        assert!(bash.contains("shipgate-client"), "{bash}");
        for word in ["diff", "history", "watch", "--format", "markdown", "sarif"] {
            assert!(bash.contains(word), "{word} missing");
        }
        let fish = completions::<Cli>(clap_complete::Shell::Fish);
        assert!(fish.contains("complete -c shipgate-client"), "{fish}");
    }

    #[test]
    fn the_manual_has_a_page_for_the_client_and_for_each_subcommand() {
        let page = man_page::<Cli>(None).unwrap_or_default();
        assert!(page.contains(".TH shipgate-client 1"), "{page}");
        // Its SUBCOMMANDS section names each subcommand's own page.
        assert!(page.contains("shipgate\\-client\\-diff(1)"), "{page}");
        assert!(page.contains("shipgate\\-client\\-history(1)"), "{page}");
        let diff = man_page::<Cli>(Some("diff")).unwrap_or_default();
        assert!(diff.contains(".TH shipgate-client-diff"), "{diff}");
        assert!(diff.contains("\\-\\-format"), "{diff}");
        let unknown = man_page::<Cli>(Some("frobnicate"))
            .err()
            .unwrap_or_default();
        assert!(
            unknown.contains("no subcommand \"frobnicate\""),
            "{unknown}"
        );
        assert!(unknown.contains("diff, history"), "{unknown}");
    }
}
