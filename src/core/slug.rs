//! Enums whose variants have a stable name (a slug) for URLs, `data-testid`s, file names and
//! exports. The macro writes the variant list, `slug()` and `from_slug()` from one table, so
//! each name is spelled once and a new variant cannot be forgotten in one of them.

/// Declares a fieldless enum with `ALL` (the variants in order), `index()`, `slug()` and
/// `from_slug()`:
///
/// ```
/// attention_core::slugged! {
///     /// A direction.
///     pub enum Way { Up = "up", Down = "down" }
/// }
/// assert_eq!(Way::from_slug("down"), Some(Way::Down));
/// assert_eq!(Way::ALL.map(Way::slug), ["up", "down"]);
/// ```
#[macro_export]
macro_rules! slugged {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $slug:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [$name; [$($slug),+].len()] = [$($name::$variant),+];

            /// Position in [`Self::ALL`], 0-based.
            pub fn index(self) -> usize {
                self as usize
            }

            /// The stable name (URL value, `data-testid` part, file-name part).
            pub fn slug(self) -> &'static str {
                match self { $($name::$variant => $slug),+ }
            }

            /// The variant named `s`, if any.
            pub fn from_slug(s: &str) -> Option<Self> {
                Self::ALL.into_iter().find(|v| v.slug() == s)
            }
        }
    };
}
