//! One declaration for the rule systems' small vocabulary enums (a unit's class, its kind or
//! troop type, a choice where the sources are silent): each variant is written once beside the
//! name it has on the command line, in unit specs and in outputs, and [`named_enum!`] makes the
//! enum, its `ALL`, `name` and `parse` from that one list.
//!
//! An enum whose names are read differently (a subset, aliases, a number) keeps its own
//! hand-written functions instead (`Status::parse_start`, `EliteRerolls::parse`).

/// Declare a vocabulary enum from `Variant => "name"` pairs, with the enum's own attributes
/// (its derives, `#[default]` on a variant, doc comments) kept as written, and make:
///
/// - `ALL: [T; N]`, every variant in the order declared (the order `list` shows them);
/// - `name(self) -> &'static str`, the variant's name;
/// - `parse(&str) -> Option<T>`, the variant of that name (the first in `ALL` that has it).
///
/// Any other method goes in a separate `impl` block beside it.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every variant, in the order declared (the order `list` shows them).
            pub const ALL: [$name; [$($text),+].len()] = [$($name::$variant),+];
            /// The name used on the command line, in unit specs and in outputs.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }
            /// Parse a name (as `name` gives it).
            pub fn parse(s: &str) -> Option<$name> {
                Self::ALL.into_iter().find(|x| x.name() == s)
            }
        }
    };
}
pub(crate) use named_enum;

#[cfg(test)]
mod tests {
    named_enum! {
        /// A test vocabulary.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        enum Colour {
            /// The first.
            Red => "red",
            /// The default.
            #[default]
            DarkBlue => "dark-blue",
            Green => "green",
        }
    }

    #[test]
    fn all_is_an_array_in_the_order_declared() {
        let all: [Colour; 3] = Colour::ALL;
        assert_eq!(all, [Colour::Red, Colour::DarkBlue, Colour::Green]);
        assert_eq!(Colour::default(), Colour::DarkBlue);
    }

    #[test]
    fn parse_reads_back_every_name_and_nothing_else() {
        for c in Colour::ALL {
            assert_eq!(Colour::parse(c.name()), Some(c));
        }
        assert_eq!(Colour::DarkBlue.name(), "dark-blue");
        for s in ["", "Red", "dark_blue", "DarkBlue", " red"] {
            assert_eq!(Colour::parse(s), None, "{s:?}");
        }
    }
}
