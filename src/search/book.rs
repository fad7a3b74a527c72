//! A book player (`book:FILE`, `book:FILE,else=SPEC`): it plays the move its file gives for the
//! position, and where the file has none, the player `else=` names, or else it refuses in one
//! line rather than guess. `bao exploit --exact` writes such files: the exact best response to a
//! victim, so that `bao eval` can confirm its claimed score by playing it.
//!
//! The file is JSON: `format` (`bao-book`), `version` (1), the game (`variant` and the rule set's
//! fingerprint: a book of another game than the one asked plays its own, as a trained network
//! does), the `victim` it answers, and
//! `entries`, each a position (its one-line text) and the move to play there.

use super::solver::cache::rules_fingerprint;
use crate::players::PlayerRegistry;
use crate::players::{Choice, Limits, Player};
use crate::rules::{Game, Move, MoveList, Position, Rules};
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The `format` of a book file.
pub const FORMAT: &str = "bao-book";
/// The version written and read.
pub const VERSION: u32 = 1;
/// The largest book file read.
const MAX_BYTES: u64 = 64 << 20;

/// One position of a book and its move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BookEntry {
    /// The position, as one line of text.
    pub position: String,
    /// The move to play.
    pub mv: Move,
}

/// A book file's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Book {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The variant's name, for people.
    pub variant: String,
    /// The rule set's fingerprint ([`rules_fingerprint`]).
    pub rules: String,
    /// The player spec of the victim this book answers.
    pub victim: String,
    /// The positions and their moves.
    pub entries: Vec<BookEntry>,
}

impl Book {
    /// An empty book of the game `rules` against `victim`.
    pub fn new(variant: &str, rules: &Rules, victim: &str) -> Book {
        Book {
            format: FORMAT.to_string(),
            version: VERSION,
            variant: variant.to_string(),
            rules: rules_fingerprint(rules),
            victim: victim.to_string(),
            entries: Vec::new(),
        }
    }

    /// Writes the book to `path`, atomically.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let json = serde_json::to_string_pretty(self).context("book as JSON")?;
        crate::util::fs::write_atomic(path, format!("{json}\n").as_bytes())
    }

    /// Reads a book from `path`: its game (`game` where the book is of it, else the book's own
    /// variant, which the player is then bound to) and its moves by position.
    pub fn read(path: &Path, game: &Game) -> anyhow::Result<(Game, HashMap<u64, Move>)> {
        let shown = path.display();
        let text = crate::util::fs::read_regular_text_bounded(path, MAX_BYTES, "book file")?;
        let book: Book = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{shown} is not a book file: {e}"))?;
        if book.format != FORMAT || book.version != VERSION {
            bail!(
                "{shown} is not a {FORMAT} file of version {VERSION} (format `{}`, version {})",
                book.format,
                book.version
            );
        }
        let own = book.variant.parse::<crate::rules::Variant>().ok();
        let game = std::iter::once(game.clone())
            .chain(own.map(Game::from))
            .find(|g| rules_fingerprint(g) == book.rules)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "the book {shown} is of a rule set no preset has ({})",
                    book.variant
                )
            })?;
        let mut moves = HashMap::with_capacity(book.entries.len());
        let mut list = MoveList::new();
        for e in &book.entries {
            let pos = Position::from_text(&e.position, &game)
                .map_err(|err| anyhow::anyhow!("bad position in {shown}: {err}"))?;
            pos.legal_moves(&game, &mut list);
            if list.find(e.mv).is_none() {
                bail!("the book {shown} gives an illegal move in {}", e.position);
            }
            moves.insert(crate::search::zobrist::hash(&pos), e.mv);
        }
        Ok((game, moves))
    }
}

/// The book player (see the module docs).
pub struct BookPlayer {
    name: String,
    path: String,
    game: Game,
    /// Whether the book is of another game than the one it was built for.
    bound: bool,
    moves: HashMap<u64, Move>,
    fallback: Option<Box<dyn Player>>,
}

impl Player for BookPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn game(&self) -> &Game {
        &self.game
    }

    /// A book plays its own game: bound where that is not the game it was built for.
    fn is_bound(&self) -> bool {
        self.bound
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> anyhow::Result<Choice> {
        if let Some(&mv) = self.moves.get(&crate::search::zobrist::hash(pos)) {
            return Ok(Choice::just(mv));
        }
        match &mut self.fallback {
            Some(player) => player.choose(pos, limits),
            None => bail!(
                "the book {} has no move for {pos} (name a player for such positions: \
                 book:FILE,else=SPEC)",
                self.path
            ),
        }
    }

    fn new_game(&mut self, seed: u64) {
        if let Some(player) = &mut self.fallback {
            player.new_game(seed);
        }
    }
}

/// Builds a `book:FILE[,else=SPEC]` player for `game` (the registry's builder).
pub fn build(
    registry: &PlayerRegistry,
    spec: &crate::players::PlayerSpec,
    asked: &Game,
    seed: u64,
) -> anyhow::Result<Box<dyn Player>> {
    let crate::players::PlayerSpec::Other { options, .. } = spec else {
        bail!("`{spec}` is not a book spec")
    };
    let (path, fallback) = match options.split_once(",else=") {
        Some((p, f)) => (p.trim(), Some(f.trim())),
        None => (options.trim(), None),
    };
    if path.is_empty() {
        bail!("`book:` needs a file: book:FILE[,else=SPEC]");
    }
    let (game, moves) = Book::read(Path::new(path), asked)?;
    let fallback = match fallback {
        Some("") => bail!("book option `else=` needs a player spec (else=ab:depth=4)"),
        Some(text) => Some(registry.resolve(text, &game, seed)?.1),
        None => None,
    };
    Ok(Box::new(BookPlayer {
        name: spec.to_string(),
        path: path.to_string(),
        bound: game != *asked,
        game,
        moves,
        fallback,
    }))
}
