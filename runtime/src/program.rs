//! A program: an IR loaded for runs, with the tables the core makes of it, shared by every run of
//! it (issue 34 item 7). A durable host loads each IR once (by its identity, [`Programs`]) and
//! drives all its runs through one `Arc<Program>`, from any thread: what belongs to one run (its
//! session id, its generator, its counts) is in its snapshot, and what the host answers is asked
//! of the host ([`super::Host`]).

use super::Runtime;
use ir::{Identity, Machine};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

self_cell::self_cell!(
    /// The IR and the runtime that reads it (which borrows it).
    struct Cell {
        owner: Machine,
        #[covariant]
        dependent: Runtime,
    }
);

/// An IR and its tables, `Send + Sync`: shared by its runs.
pub struct Program {
    cell: Cell,
    identity: Identity,
}

const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Program>();
};

impl Program {
    /// The program of `machine`: its tables made once.
    pub fn new(machine: Machine) -> Program {
        let identity = machine.identity();
        Program { cell: Cell::new(machine, |m| Runtime::new(m)), identity }
    }

    /// Sets what the host gives every run of the program (its bounds, its [`super::Host`]),
    /// before the program is shared.
    pub fn configure(&mut self, f: impl FnOnce(&mut Runtime<'_>)) {
        self.cell.with_dependent_mut(|_, rt| f(rt));
    }

    /// The runtime its runs step through.
    pub fn runtime(&self) -> &Runtime<'_> {
        self.cell.borrow_dependent()
    }

    pub fn machine(&self) -> &Machine {
        self.cell.borrow_owner()
    }

    /// The IR's identity ([`Machine::identity`]), made when the program was.
    pub fn identity(&self) -> Identity {
        self.identity
    }
}

/// The programs loaded, by identity: each IR is loaded once while any run holds it (a program no
/// run holds is dropped, and loaded again when one needs it).
#[derive(Default)]
pub struct Programs {
    loaded: Mutex<HashMap<Identity, Weak<Program>>>,
}

impl Programs {
    pub fn new() -> Programs {
        Programs::default()
    }

    /// The program of `identity`: the one loaded, else `load`'s (whose IR must have that
    /// identity: an IR read back from a store that hashes otherwise is refused, as a store that
    /// changed under the host).
    pub fn get_or_load<E>(
        &self,
        identity: Identity,
        load: impl FnOnce() -> Result<Program, E>,
        mismatch: impl FnOnce(Identity) -> E,
    ) -> Result<Arc<Program>, E> {
        if let Some(p) = self.lock().get(&identity).and_then(Weak::upgrade) {
            return Ok(p);
        }
        let program = load()?;
        if program.identity != identity {
            return Err(mismatch(program.identity));
        }
        let mut loaded = self.lock();
        // Another thread may have loaded it meanwhile: keep one.
        if let Some(p) = loaded.get(&identity).and_then(Weak::upgrade) {
            return Ok(p);
        }
        loaded.retain(|_, w| w.strong_count() > 0);
        let program = Arc::new(program);
        loaded.insert(identity, Arc::downgrade(&program));
        Ok(program)
    }

    /// `program` as the one loaded for its identity: the one already loaded where there is one
    /// (so that the runs of one IR share one program), else `program`, kept from now on.
    pub fn share(&self, program: Arc<Program>) -> Arc<Program> {
        let mut loaded = self.lock();
        if let Some(p) = loaded.get(&program.identity).and_then(Weak::upgrade) {
            return p;
        }
        loaded.retain(|_, w| w.strong_count() > 0);
        loaded.insert(program.identity, Arc::downgrade(&program));
        program
    }

    /// How many programs are loaded now.
    pub fn len(&self) -> usize {
        self.lock().values().filter(|w| w.strong_count() > 0).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Identity, Weak<Program>>> {
        // A panic while holding the lock leaves a map that is still whole: go on with it.
        self.loaded.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
