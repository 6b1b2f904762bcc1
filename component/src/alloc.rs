//! The component's allocator: a bump arena for the work of one call, over
//! the general allocator (`System`: dlmalloc, Rust's wasm default) for what
//! outlives calls.
//!
//! Why: a call builds and drops a whole JSON tree, its findings and its
//! output, tens of thousands of small blocks, and then everything it made is
//! freed (the results by the canonical ABI's post-return). In V8, dlmalloc's
//! `malloc`, `free` and `realloc` were 7% of a sanitize call on the real
//! corpus; a bump allocator's are a few instructions.
//!
//! Why it is sound: the arena counts the blocks it hands out, and only when
//! that count is zero (no arena block alive) does it start over from its
//! first chunk. That is its only reuse, so a block left alive merely
//! postpones the restart. A freed block at the top is taken back at once
//! (temporaries; a `Vec` or `String` growing in place).
//!
//! What lives across calls (a compiled `policy` and its handle) must not
//! hold the count up forever: `persistent` sends the `policy` constructor's
//! allocations (and the handle built after it) to `System`, and `per_call`
//! sends a call's own back to the arena. Frees go to whichever allocator owns
//! the address. A call in the wrong mode is still correct, only slower.
//!
//! Bounded: the chunks come from `System`, doubling from 1 MiB, at most
//! `CAP` in all; past that, allocations go to `System`. Chunks are kept for
//! the next call (linear memory never shrinks anyway). wasm32 has one
//! thread, so the state needs no lock.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;

const FIRST_CHUNK: usize = 1 << 20;
const MAX_CHUNKS: usize = 5;
/// Arena bytes at most: chunks of 1 + 2 + 4 + 8 + 16 MiB. A call on the 1.7 MB
/// real corpus allocates about 20 MB in all, so it runs in the arena; past
/// the cap a call goes on in dlmalloc, so its peak is at most this much above
/// what it was without the arena (the hosts give the component 256 MiB or
/// more; the adversarial files stay under 64 MiB, `host/tests/bounds.rs`).
const CAP: usize = 31 << 20;
/// Blocks this large go to `System`. A block that does not fit what is left
/// of the chunk being filled moves the bump to the next chunk that holds it,
/// and everything after it follows: the 5 MB block a host writes a 1.7 MB
/// catalog into (the npm glue sizes it at 3 bytes per UTF-16 unit and
/// shrinks it after) skipped the first three chunks (7 MiB), so the call's
/// ~20 MB spilled past the last chunk and linear memory grew by 19 MiB. A
/// few large blocks a call (its input, its output, the detector's memo text)
/// cost dlmalloc nothing measurable.
const BIG: usize = FIRST_CHUNK;

pub struct Arena(UnsafeCell<State>);

// The component runs on one thread (wasm32 without threads).
unsafe impl Sync for Arena {}

struct State {
    /// (start, end) of each chunk; the first `n` are allocated.
    chunks: [(usize, usize); MAX_CHUNKS],
    n: usize,
    /// The chunk being filled, and its first free byte.
    cur: usize,
    top: usize,
    /// Arena blocks alive.
    live: usize,
    on: bool,
}

#[global_allocator]
static ARENA: Arena = Arena(UnsafeCell::new(State { chunks: [(0, 0); MAX_CHUNKS], n: 0, cur: 0, top: 0, live: 0, on: false }));

/// A call's own allocations: to the arena.
pub fn per_call() {
    // SAFETY: one thread, and no reference into the state is held across calls.
    unsafe { (*ARENA.0.get()).on = true }
}

/// Allocations that outlive the call (the `policy` constructor): to `System`.
pub fn persistent() {
    // SAFETY: as in `per_call`.
    unsafe { (*ARENA.0.get()).on = false }
}

impl State {
    fn owns(&self, p: usize) -> bool {
        self.chunks[..self.n].iter().any(|&(a, b)| p >= a && p < b)
    }

    /// A block from the chunk being filled, else from the next one (made if
    /// need be); `None` past the cap.
    fn bump(&mut self, l: Layout) -> Option<usize> {
        loop {
            if self.cur < self.n {
                let end = self.chunks[self.cur].1;
                let at = self.top.checked_add(l.align() - 1)? & !(l.align() - 1);
                if at.checked_add(l.size())? <= end {
                    self.top = at + l.size();
                    self.live += 1;
                    return Some(at);
                }
                if self.cur + 1 < self.n {
                    self.cur += 1;
                    self.top = self.chunks[self.cur].0;
                    continue;
                }
            }
            if self.n == MAX_CHUNKS {
                return None;
            }
            // A new chunk: twice the last, and large enough for this block.
            let last = if self.n == 0 { FIRST_CHUNK / 2 } else { self.chunks[self.n - 1].1 - self.chunks[self.n - 1].0 };
            let size = (last * 2).max(l.size().checked_add(l.align())?.next_power_of_two());
            let total: usize = self.chunks[..self.n].iter().map(|&(a, b)| b - a).sum();
            if total.checked_add(size)? > CAP {
                return None;
            }
            // SAFETY: a non-zero size and a valid alignment.
            let p = unsafe { System.alloc(Layout::from_size_align(size, 16).ok()?) } as usize;
            if p == 0 {
                return None;
            }
            self.chunks[self.n] = (p, p + size);
            self.n += 1;
            self.cur = self.n - 1;
            self.top = p;
        }
    }

    fn free(&mut self, p: usize, size: usize) {
        self.live -= 1;
        if self.live == 0 {
            self.cur = 0;
            self.top = self.chunks[0].0;
        } else if p + size == self.top && p >= self.chunks[self.cur].0 {
            self.top = p;
        }
    }
}

// SAFETY: blocks are handed out at most once while alive (the bump only
// moves up, and restarts only when no block is alive), aligned as asked,
// and freed to the allocator whose address range holds them.
unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let s = &mut *self.0.get();
        if s.on && l.size() < BIG {
            if let Some(p) = s.bump(l) {
                return p as *mut u8;
            }
        }
        System.alloc(l)
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        let s = &mut *self.0.get();
        if s.owns(p as usize) {
            s.free(p as usize, l.size());
        } else {
            System.dealloc(p, l)
        }
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let s = &mut *self.0.get();
        let a = p as usize;
        if !s.owns(a) {
            return System.realloc(p, l, new_size);
        }
        // The top block of the chunk being filled grows or shrinks in place.
        if a + l.size() == s.top && a >= s.chunks[s.cur].0 && a + new_size <= s.chunks[s.cur].1 {
            s.top = a + new_size;
            return p;
        }
        let Ok(nl) = Layout::from_size_align(new_size, l.align()) else { return std::ptr::null_mut() };
        // Allocated before the old block is freed, so the count cannot reach
        // zero (and the arena restart) while its bytes are still to be copied.
        let q = self.alloc(nl);
        if !q.is_null() {
            std::ptr::copy_nonoverlapping(p, q, l.size().min(new_size));
            self.dealloc(p, l);
        }
        q
    }
}
