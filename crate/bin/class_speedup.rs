//! `meshmate speedup --relay URL --members N`: the time-to-depth table of `speedup`, measured
//! on a class. This process creates a session at the relay and is its processor 0; the
//! members (`meshmate join` processes or students' tabs) join with the code it prints.
//! Every parallel search runs on the whole class, each processor with a table of its own;
//! the serial reference runs here alone.

use crate::cli::read_lecturer_token;
use crate::speedup::{run_speedup, SpeedupArgs};
use meshmate::machine::cluster::relay::RelayLink;
use meshmate::machine::{Cluster, Counters, Machine, Payload, Program};
use meshmate::search::Control;
use meshmate::tt::{Placement, TranspositionTable};
use std::sync::Arc;
use std::time::Duration;

/// How long the members have to join before the measurement gives up.
const JOIN_WITHIN: Duration = Duration::from_secs(600);

/// The class as `speedup` sees it: before each search together the roster is frozen
/// (every live member takes part), and a roster smaller than asked for stops the
/// measurement, whose later rows would not be the class's size.
struct Class<'a> {
    cluster: Cluster<RelayLink>,
    /// The processors a search together has: processor 0 and the members asked for.
    size: usize,
    control: &'a Control,
    /// Why the measurement stopped, if the class could not start a search.
    fault: Option<String>,
}

impl Machine for Class<'_> {
    fn processors(&self) -> usize {
        self.size
    }

    fn local_processors(&self, processors: usize) -> usize {
        self.cluster.local_processors(processors)
    }

    fn announce(&mut self, task: Vec<u8>) {
        match self.cluster.link_mut().start() {
            Ok(processors) if processors == self.size => self.cluster.announce(task),
            started => {
                self.fault = Some(match started {
                    Ok(processors) => format!("a search started with {processors} processors, not {}: members left or more joined", self.size),
                    Err(e) => e,
                });
                // Unannounced, processor 0 searches alone; the row is dropped.
                self.control.stop();
            }
        }
    }

    fn run<M: Payload>(&mut self, main: &mut dyn Program<Message = M>, helpers: Vec<Box<dyn Program<Message = M> + Send + '_>>, counters: &Counters) {
        self.cluster.run(main, helpers, counters);
        if let Some(why) = self.cluster.fault() {
            self.fault.get_or_insert_with(|| why.to_string());
            self.control.stop();
        }
    }
}

/// Measures `args` on a class at the relay `args.relay`.
pub fn speedup_on_class(args: SpeedupArgs) -> Result<(), String> {
    let (Some(url), Some(members), Some(token_file)) = (args.relay.clone(), args.members, args.lecturer_token_file.clone()) else {
        unreachable!("clap requires --members and --lecturer-token-file with --relay")
    };
    if args.tt.is_some_and(|tt| tt != Placement::Local) {
        return Err("--tt: the processors of a class share no memory; each keeps a table of its own (local)".into());
    }
    if let Some(why) = args.algorithms.iter().find_map(|a| a.needs_shared_memory()) {
        return Err(format!("{why}: on a class use ybwc, jamboree, pvsplit, tdsab or aphid"));
    }
    let size = usize::from(members) + 1;
    if let Some(p) = args.threads.iter().find(|&&p| usize::from(p) != 1 && usize::from(p) != size) {
        return Err(format!("--threads {p}: a parallel search on the class uses processor 0 and all {members} members; ask for 1 or {size}"));
    }
    let token = read_lecturer_token(&token_file)?;
    let tt = Arc::new(TranspositionTable::try_new(args.hash).map_err(|e| e.to_string())?);
    let mut link = RelayLink::create(&url, &token)?;
    eprintln!("class {} created: join it with `meshmate join {url} {}` or a tab's Class view; waiting for {members} members", link.code(), link.code());
    link.wait_for_members(usize::from(members), JOIN_WITHIN)?;
    eprintln!("{members} members joined");
    let control = Control::default();
    let mut class = Class { cluster: Cluster::new(link).ok_or("the relay did not make this process processor 0")?, size, control: &control, fault: None };
    class.cluster.set_paced(!args.papers_split);
    let measured = run_speedup(&mut class, &tt, args, vec![size], &control);
    class.cluster.quit();
    measured?;
    class.fault.map_or(Ok(()), |why| Err(format!("the measurement stopped early: {why}")))
}
