//! A player in another process: any program that speaks the `bao engine` line protocol (for
//! example a `bao` binary built from an older commit, so that a frozen baseline can be played).
//!
//! Each move sends `position text POSITION` and `go` with the limits, and reads `bestmove`.

use super::player::{Choice, Limits, Player};
use crate::notation::MoveSpec;
use crate::rules::{MoveList, Position, Rules, Variant};
use anyhow::{Context, bail};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A `bao engine` process playing as a [`Player`].
pub struct ExternalEngine {
    name: String,
    program: PathBuf,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The variant the engine was last told.
    variant: Option<Variant>,
}

impl ExternalEngine {
    /// Starts `program engine`, then `player SPEC` if a player spec is given.
    pub fn start(program: &Path, player: Option<&str>, name: String) -> anyhow::Result<Self> {
        let mut child = Command::new(program)
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("cannot start the engine {}", program.display()))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("engine stdout")?);
        let mut engine = ExternalEngine {
            name,
            program: program.to_path_buf(),
            child,
            stdin,
            stdout,
            variant: None,
        };
        let hello = engine.read_line()?;
        anyhow::ensure!(
            hello.contains("engine ready"),
            "{} is not a bao engine: it said `{hello}`",
            program.display()
        );
        if let Some(spec) = player {
            engine.ask(&format!("player {spec}"))?;
        }
        Ok(engine)
    }

    fn read_line(&mut self) -> anyhow::Result<String> {
        let mut line = String::new();
        let n = self
            .stdout
            .read_line(&mut line)
            .with_context(|| format!("reading from the engine {}", self.program.display()))?;
        anyhow::ensure!(n > 0, "the engine {} stopped", self.program.display());
        Ok(line.trim_end().to_string())
    }

    /// Sends one command and returns its one-line reply; an `error` reply is an error.
    fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("writing to the engine {}", self.program.display()))?;
        let reply = self.read_line()?;
        if let Some(why) = reply.strip_prefix("error") {
            bail!("the engine refused `{command}`:{why}");
        }
        Ok(reply)
    }
}

impl Player for ExternalEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, rules: &Rules, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        let variant = Variant::ALL
            .into_iter()
            .find(|v| v.rules() == *rules)
            .context("an external engine plays the preset rule sets only")?;
        if self.variant != Some(variant) {
            self.ask(&format!("variant {}", variant.name()))?;
            self.variant = Some(variant);
        }
        self.ask(&format!("position text {pos}"))?;
        let mut go = String::from("go");
        if let Some(n) = limits.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(d) = limits.depth {
            go += &format!(" depth {d}");
        }
        if let Some(t) = limits.time {
            go += &format!(" movetime {}", t.as_millis().max(1));
        }
        let reply = self.ask(&go)?;
        parse_bestmove(rules, pos, &reply).with_context(|| format!("the engine answered `{reply}`"))
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            // Give it a moment to quit by itself, then make sure it is gone.
            std::thread::sleep(std::time::Duration::from_millis(5));
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Reads `bestmove M value V nodes N depth D pv M...` in `pos`.
fn parse_bestmove(rules: &Rules, pos: &Position, reply: &str) -> anyhow::Result<Choice> {
    let words: Vec<&str> = reply.split_whitespace().collect();
    let field = |name: &str| {
        words
            .iter()
            .position(|w| *w == name)
            .and_then(|i| words.get(i + 1))
            .copied()
    };
    let text = match words.as_slice() {
        ["bestmove", mv, ..] => *mv,
        _ => bail!("no bestmove"),
    };
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    let mv = MoveSpec::parse(text, pos.side_to_move())
        .and_then(|spec| spec.resolve(text, pos, &list))?;
    // The principal variation, as far as it is legal here.
    let mut pv = vec![mv];
    if let Some(i) = words.iter().position(|w| *w == "pv") {
        let mut p = *list.find(mv).expect("resolved from the list");
        for text in words.iter().skip(i + 2) {
            let Ok((m, next)) = crate::notation::parse_and_play(rules, &p, text) else {
                break;
            };
            pv.push(m);
            p = next;
        }
    }
    Ok(Choice {
        mv,
        eval: field("value").and_then(|v| v.parse().ok()),
        nodes: field("nodes").and_then(|v| v.parse().ok()).unwrap_or(0),
        depth: field("depth").and_then(|v| v.parse().ok()).unwrap_or(0),
        pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_bestmove_line_with_its_principal_variation() {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let c = parse_bestmove(
            &rules,
            &pos,
            "bestmove A6< value +0.125 nodes 1234 depth 7 pv A6< a5> zz9",
        )
        .unwrap();
        assert_eq!(crate::notation::move_text(c.mv, pos.side_to_move()), "A6<");
        assert_eq!(c.eval, Some(0.125));
        assert_eq!((c.nodes, c.depth), (1234, 7));
        assert_eq!(
            c.pv.len(),
            2,
            "the line stops at the first move that is not legal"
        );
        assert!(parse_bestmove(&rules, &pos, "bestmove b9<").is_err());
        assert!(parse_bestmove(&rules, &pos, "ok").is_err());
    }
}
