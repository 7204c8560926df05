//! Ids of the choices a link names (readers, workloads, cursors, lessons, …)
//! are the serde names of their enums, and nothing else: `#[serde(rename_all
//! = …)]` on the enum is the one place that spells them. [`Id`] reads them
//! back from serde, so no enum writes an `id()`/`from_id()` of its own and the
//! link, the JSON report and the generated TypeScript unions cannot disagree.

use serde::de::{self, value, DeserializeOwned, Deserializer, IntoDeserializer, Visitor};

/// A fieldless enum whose serde variant names are its ids.
pub trait Id: Copy + PartialEq + DeserializeOwned + 'static {
    /// Every id, in declaration order (serde's own list of variant names).
    fn ids() -> &'static [&'static str] {
        variant_names::<Self>()
    }

    /// The value with this id (exact match; the link decoder trims and
    /// lower-cases first).
    fn from_id(id: &str) -> Option<Self> {
        Self::deserialize(IntoDeserializer::<value::Error>::into_deserializer(id)).ok()
    }

    /// This value's id.
    fn id(self) -> &'static str {
        Self::ids()
            .iter()
            .copied()
            .find(|name| Self::from_id(name) == Some(self))
            .expect("every variant is named in serde's list")
    }

    /// Every value, in declaration order.
    fn all() -> Vec<Self> {
        Self::ids().iter().filter_map(|name| Self::from_id(name)).collect()
    }
}

/// The variant names serde's derive passes to `deserialize_enum`, renames
/// applied. Asks for an enum and keeps the list it is offered.
fn variant_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut names = None;
    let _ = T::deserialize(VariantNames(&mut names));
    names.expect("an id type is an enum deserialized by name")
}

struct VariantNames<'a>(&'a mut Option<&'static [&'static str]>);

impl<'de> Deserializer<'de> for VariantNames<'_> {
    type Error = value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not an enum"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(variants);
        Err(de::Error::custom("only the variant names were wanted"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Colour {
        DeepRed,
        #[serde(rename = "blue!")]
        Blue,
    }

    impl Id for Colour {}

    #[test]
    fn ids_are_the_serde_names() {
        assert_eq!(Colour::ids(), ["deep_red", "blue!"]);
        assert_eq!(Colour::DeepRed.id(), "deep_red");
        assert_eq!(Colour::Blue.id(), "blue!");
        assert_eq!(Colour::from_id("blue!"), Some(Colour::Blue));
        assert_eq!(Colour::from_id("DeepRed"), None);
        assert_eq!(Colour::all(), [Colour::DeepRed, Colour::Blue]);
    }
}
