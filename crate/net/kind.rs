//! The kinds of network by name, and which processor counts each allows.

use super::{NetError, MAX_PROCESSORS};

/// A kind of interconnection network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Binary DeBruijn graph DB(n) on 2^n processors, in Zugzwang's modified form.
    DeBruijn,
    /// Binary n-cube on 2^n processors.
    Hypercube,
    /// Processors at the leaves of a 4-ary tree of switches whose links widen towards the
    /// root, as the CM-5's data network.
    FatTree,
    /// One shared medium (a bus, or shared memory).
    Bus,
    /// A bidirectional ring.
    Ring,
    /// A link between every two processors.
    Full,
}

impl Kind {
    /// Every kind, in the order a menu would list them.
    pub const ALL: [Kind; 6] =
        [Kind::DeBruijn, Kind::Hypercube, Kind::FatTree, Kind::Bus, Kind::Ring, Kind::Full];

    /// The name used on the command line, in traces and in the UI; [`str::parse`] reads it back.
    pub fn name(self) -> &'static str {
        match self {
            Kind::DeBruijn => "debruijn",
            Kind::Hypercube => "hypercube",
            Kind::FatTree => "fattree",
            Kind::Bus => "bus",
            Kind::Ring => "ring",
            Kind::Full => "full",
        }
    }

    /// The network in one line (for `--help` and menus).
    pub fn summary(self) -> &'static str {
        match self {
            Kind::DeBruijn => "binary DeBruijn graph on 2^n processors, in Zugzwang's form",
            Kind::Hypercube => "binary n-cube on 2^n processors",
            Kind::FatTree => "a 4-ary tree of switches whose links widen towards the root (CM-5)",
            Kind::Bus => "one shared medium (a bus, or shared memory)",
            Kind::Ring => "a bidirectional ring",
            Kind::Full => "a link between every two processors",
        }
    }

    /// Whether this kind can have `processors` processors: 1 to [`MAX_PROCESSORS`], and a
    /// power of two for DeBruijn and hypercube.
    pub fn check(self, processors: usize) -> Result<(), NetError> {
        if processors == 0 {
            return Err(NetError::NoProcessors);
        }
        if processors > MAX_PROCESSORS {
            return Err(NetError::TooManyProcessors(processors));
        }
        let needs_power_of_two = matches!(self, Kind::DeBruijn | Kind::Hypercube);
        if needs_power_of_two && !processors.is_power_of_two() {
            return Err(NetError::NotAPowerOfTwo { kind: self, processors });
        }
        Ok(())
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl std::str::FromStr for Kind {
    type Err = NetError;

    /// Reads a name from [`Kind::name`], ignoring case and surrounding blanks.
    fn from_str(text: &str) -> Result<Kind, NetError> {
        let name = text.trim();
        Kind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| NetError::UnknownKind(name.to_string()))
    }
}
