//! Values the command lines take, each read by the library's own parser, for both
//! binaries' options.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use meshmate::parallel::Algorithm;
use meshmate::tt::Placement;
use std::ffi::OsStr;

/// A search depth: 1 to 64.
pub fn depth() -> clap::builder::RangedI64ValueParser<i32> {
    clap::value_parser!(i32).range(1..=64)
}

/// A table size in MiB: 1 MiB to 64 GiB (what the machine can allocate is checked later).
pub fn hash() -> impl TypedValueParser<Value = usize> {
    clap::value_parser!(u64).range(1..=65536).map(|mib| mib as usize)
}

/// A value read by the library's own parser (whose error names the valid values), whose
/// valid values `--help` lists with a line each.
#[derive(Clone)]
pub struct Named<T> {
    pub values: fn() -> Vec<PossibleValue>,
    pub parse: fn(&str) -> Result<T, String>,
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let text = value.to_str().ok_or_else(|| clap::Error::new(ErrorKind::InvalidUtf8).with_cmd(cmd))?;
        (self.parse)(text).map_err(|e| {
            let arg = arg.map_or_else(String::new, |a| format!(" for '{a}'"));
            cmd.clone().error(ErrorKind::InvalidValue, format!("invalid value '{text}'{arg}: {e}"))
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.values)().into_iter()))
    }
}

pub fn algorithm() -> Named<Algorithm> {
    Named {
        values: || Algorithm::ALL.into_iter().chain(Algorithm::VARIANTS).map(|a| PossibleValue::new(a.name()).help(a.summary())).collect(),
        parse: |name| {
            Algorithm::from_name(name.trim()).ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.into_iter().chain(Algorithm::VARIANTS).map(Algorithm::name).collect();
                format!("unknown algorithm '{name}': expected one of {}", names.join(", "))
            })
        },
    }
}

pub fn placement() -> Named<Placement> {
    Named { values: || Placement::ALL.iter().map(|p| PossibleValue::new(p.name()).help(p.summary())).collect(), parse: |name| name.parse::<Placement>() }
}
