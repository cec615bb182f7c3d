//! `aggregate_enum!`: declares one aggregate's event enum in its room from the room's list of
//! event types (the same list `crate::events` builds the envelope, the stored names and the
//! decoding from), so each aggregate owns its enum and a fold over it is exhaustive.

/// Given a room's list (`[] Aggregate(Enum, id_field) { Variant = "Name" version N, … }`):
/// `pub enum Enum { Variant(Variant), … }` and `From<Variant> for Enum`.
macro_rules! aggregate_enum {
    ([] $aggregate:ident($enum:ident, $id:ident) {
        $($variant:ident = $name:literal version $version:literal $(in $tag:ident)*
            $(notify [$($kind:ident),*])?),* $(,)?
    }) => {
        #[doc = concat!(
            "The events of the [`crate::", stringify!($aggregate), "`] aggregate's stream, ",
            "one variant per stored type (its kind, stream, payload and decoding are generated beside the envelope)."
        )]
        #[derive(Debug, Clone, PartialEq)]
        pub enum $enum {
            $($variant($variant),)*
        }

        $(
            impl From<$variant> for $enum {
                fn from(event: $variant) -> Self {
                    $enum::$variant(event)
                }
            }
        )*
    };
}
pub(crate) use aggregate_enum;
