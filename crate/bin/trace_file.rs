//! `meshmate sim --trace FILE`: the simulator's event stream written to a file while it
//! is produced, so memory stays bounded even at 1024 processors. Each simulated machine
//! streams into a part file of its own (its header first); when every run is over the parts
//! are joined into FILE in machine order, as the trace schema wants (a machine, then its
//! runs), and removed.

use meshmate::machine::sim::{Event, Sim, TraceSink};
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// One machine's part file and the first error writing it.
struct Part {
    path: PathBuf,
    out: BufWriter<File>,
    error: Option<std::io::Error>,
}

/// The sink a machine streams into (shares its part with the [`TraceFile`]).
struct PartSink(Rc<RefCell<Part>>);

impl TraceSink for PartSink {
    fn event(&mut self, event: &Event, labels: &[String]) {
        let mut part = self.0.borrow_mut();
        if part.error.is_none() {
            if let Err(e) = writeln!(part.out, "{}", event.to_json(labels)) {
                part.error = Some(e);
            }
        }
    }
}

/// The trace file being written.
pub struct TraceFile {
    path: String,
    parts: Vec<Rc<RefCell<Part>>>,
}

impl TraceFile {
    /// A trace to be written to `path`.
    pub fn new(path: &Path) -> TraceFile {
        TraceFile { path: path.display().to_string(), parts: Vec::new() }
    }

    /// Streams `sim`'s events into the next part file, after its header line.
    pub fn stream(&mut self, sim: &mut Sim) -> Result<(), String> {
        let path = PathBuf::from(format!("{}.part{}", self.path, self.parts.len()));
        let file = File::create(&path).map_err(|e| self.error(e))?;
        let mut out = BufWriter::new(file);
        writeln!(out, "{}", sim.trace_header()).map_err(|e| self.error(e))?;
        let part = Rc::new(RefCell::new(Part { path, out, error: None }));
        self.parts.push(part.clone());
        sim.stream_trace(Box::new(PartSink(part)));
        Ok(())
    }

    /// Joins the parts into the trace file and removes them (also when writing failed).
    pub fn finish(self) -> Result<(), String> {
        let joined = self.join();
        for part in &self.parts {
            let _ = std::fs::remove_file(&part.borrow().path);
        }
        joined
    }

    fn join(&self) -> Result<(), String> {
        let mut out = BufWriter::new(File::create(&self.path).map_err(|e| self.error(e))?);
        for part in &self.parts {
            let mut part = part.borrow_mut();
            if let Some(e) = part.error.take() {
                return Err(self.error(e));
            }
            part.out.flush().map_err(|e| self.error(e))?;
            let mut file = File::open(&part.path).map_err(|e| self.error(e))?;
            std::io::copy(&mut file, &mut out).map_err(|e| self.error(e))?;
        }
        out.flush().map_err(|e| self.error(e))
    }

    fn error(&self, e: std::io::Error) -> String {
        format!("cannot write '{}': {e}", self.path)
    }
}
