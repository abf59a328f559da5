//! Words that name sides. The rules know a side by its id ("french"); a
//! reader knows it by the name its campaign gives it ("the French army").
//! A [`Phrase`] keeps the sides apart from the words around them until the
//! words are rendered: with ids for what the archive holds (the state's
//! `finished`, an event's text, whose bytes are frozen), with names for
//! people (a report, the GM's reply, the chronicle).

/// Words with the sides they name kept as ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Phrase(Vec<Piece>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Words(String),
    Side(String),
}

impl Phrase {
    /// A phrase that begins with `words`.
    pub fn words(words: impl Into<String>) -> Phrase {
        Phrase(vec![Piece::Words(words.into())])
    }

    /// A phrase that begins with the side `id`.
    pub fn side(id: &str) -> Phrase {
        Phrase(vec![Piece::Side(id.to_string())])
    }

    /// The phrase followed by `words`.
    pub fn then(mut self, words: impl Into<String>) -> Phrase {
        self.0.push(Piece::Words(words.into()));
        self
    }

    /// The phrase followed by the side `id`.
    pub fn then_side(mut self, id: &str) -> Phrase {
        self.0.push(Piece::Side(id.to_string()));
        self
    }

    /// The phrase followed by `more`.
    pub fn join(mut self, more: Phrase) -> Phrase {
        self.0.extend(more.0);
        self
    }

    /// As the archive holds it: each side by its id.
    pub fn with_ids(&self) -> String {
        self.render(|id| id.to_string())
    }

    /// For a reader: each side by `name`.
    pub fn render(&self, name: impl Fn(&str) -> String) -> String {
        self.0
            .iter()
            .map(|piece| match piece {
                Piece::Words(words) => words.clone(),
                Piece::Side(id) => name(id),
            })
            .collect()
    }

    /// The sides it names, by id, in the order it names them.
    pub fn sides(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|piece| match piece {
            Piece::Side(id) => Some(id.as_str()),
            Piece::Words(_) => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_archive_reads_ids_and_a_reader_reads_names() {
        let phrase = Phrase::side("french")
            .then(" breaks: the battle goes to ")
            .then_side("austrian")
            .then(".");
        assert_eq!(
            phrase.with_ids(),
            "french breaks: the battle goes to austrian."
        );
        let name = |id: &str| match id {
            "french" => "The French".to_string(),
            _ => "the Austrians".to_string(),
        };
        assert_eq!(
            phrase.render(name),
            "The French breaks: the battle goes to the Austrians."
        );
        assert_eq!(phrase.sides().collect::<Vec<_>>(), ["french", "austrian"]);
    }
}
