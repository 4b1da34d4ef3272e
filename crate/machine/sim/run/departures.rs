//! Processors leaving a run (crate/machine/sim/churn.rs has the rules): a departure stops
//! its processor, the machine notices it after the preset's delay, and each other
//! processor hears it once every message the lost one sent it has arrived.

use super::{Phase, ProcessorState, Run};
use crate::machine::Payload;

impl<M: Payload> Run<'_, '_, M> {
    /// Departure number `index` happens at `time`: its processor stops (unless it is done
    /// already) and its mailbox is dropped; the others hear of it after the notice delay.
    pub(super) fn leave(&mut self, index: usize, time: u64) {
        let departure = self.hardware.departures[index];
        let id = departure.processor;
        if self.procs[id].phase == Phase::Finished {
            return;
        }
        let proc = &mut self.procs[id];
        if time > proc.clock {
            if proc.phase == Phase::Asleep {
                proc.idle_ns += time - proc.clock;
            }
            proc.clock = time;
        }
        let at = proc.clock;
        self.mailboxes[id].clear();
        self.change_state(id, at, Phase::Gone, ProcessorState::Done);
        let delay = self.hardware.loss_notice.expect("Sim::set_departures refuses departures on machines that notice no loss").after(departure.how);
        self.calendar.notice_at(time + delay, index);
    }

    /// The machine has noticed departure number `index` at `time`: each other processor
    /// still in the run hears of it once every message the lost one sent it has arrived.
    pub(super) fn notice(&mut self, index: usize, time: u64) {
        let lost = self.hardware.departures[index].processor;
        for to in 0..self.procs.len() {
            if to == lost || matches!(self.procs[to].phase, Phase::Gone | Phase::Finished) {
                continue;
            }
            let in_flight = self.flights.iter().flatten().filter(|f| f.from == lost && f.to == to).count();
            if in_flight == 0 {
                self.tell_lost(lost, to, time);
            } else {
                self.notices_held.push((lost, to, in_flight));
            }
        }
    }

    /// A message from `from` reached `to` at `time`: a notice of `from`'s loss held behind
    /// it may now follow.
    pub(super) fn landed(&mut self, from: usize, to: usize, time: u64) {
        let Some(k) = self.notices_held.iter().position(|&(lost, receiver, _)| lost == from && receiver == to) else { return };
        self.notices_held[k].2 -= 1;
        if self.notices_held[k].2 == 0 {
            self.notices_held.swap_remove(k);
            if !matches!(self.procs[to].phase, Phase::Gone | Phase::Finished) {
                self.tell_lost(from, to, time);
            }
        }
    }

    /// Puts the machine's message that `lost` is gone in `to`'s mailbox at `time`.
    fn tell_lost(&mut self, lost: usize, to: usize, time: u64) {
        let message = M::lost(lost).expect("checked when the run was built");
        self.mailboxes[to].push_back((lost, message));
        if self.procs[to].phase == Phase::Asleep {
            self.wake(to, time);
        }
    }
}
