//! The simulated sockets' buffers, reused from one load to the next. Each socket has two of 4 MiB
//! (a receive window that never limits a page, as Linux's autotuning grows it); fresh ones come as
//! untouched pages, so a load paid a page fault for every 4 KiB its data went through and unmapped
//! them all at its end: an eighth of a batch's time. smoltcp's ring buffers need no zeroed memory,
//! so a buffer goes back to this thread's pool when the load's sockets are gone and is lent again
//! as it is.

use std::cell::RefCell;
use std::ptr::NonNull;

/// Bytes in each buffer.
pub const BUFFER: usize = 4 << 20;
/// Buffers kept between loads: a load of many HTTP/1.1 connections needs more, which are freed.
const KEPT: usize = 256;

struct Slab(NonNull<u8>);

// SAFETY: a slab is owned memory, as a Box<[u8]> is, whichever thread's pool it returns to.
unsafe impl Send for Slab {}

thread_local! {
    static FREE: RefCell<Vec<Slab>> = const { RefCell::new(Vec::new()) };
}

/// The buffers one fabric's sockets borrow. It must be dropped after every socket it lent to: the
/// fabric holds it as its last field, after its hosts and their sockets.
#[derive(Default)]
pub struct Buffers {
    lent: Vec<Slab>,
}

impl Buffers {
    pub fn take(&mut self) -> &'static mut [u8] {
        let slab = FREE.with(|f| f.borrow_mut().pop()).unwrap_or_else(|| {
            let fresh: Box<[u8]> = vec![0u8; BUFFER].into_boxed_slice();
            Slab(NonNull::new(Box::into_raw(fresh).cast::<u8>()).expect("a box is not null"))
        });
        let ptr = slab.0.as_ptr();
        self.lent.push(slab);
        // SAFETY: the slab is BUFFER bytes from a leaked box, lent to one socket only; it goes back
        // to the pool when this Buffers drops, after that socket (see the type's comment).
        unsafe { std::slice::from_raw_parts_mut(ptr, BUFFER) }
    }
}

impl Drop for Buffers {
    fn drop(&mut self) {
        FREE.with(|f| {
            let mut free = f.borrow_mut();
            for slab in self.lent.drain(..) {
                if free.len() < KEPT {
                    free.push(slab);
                } else {
                    // SAFETY: made by Box::into_raw of a BUFFER-byte slice above, and no longer lent.
                    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(slab.0.as_ptr(), BUFFER)) });
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_lent_again_after_its_borrower_is_gone() {
        let first = {
            let mut b = Buffers::default();
            let slab = b.take();
            slab[0] = 7;
            slab.as_ptr()
        };
        let mut b = Buffers::default();
        let again = b.take();
        assert_eq!(again.as_ptr(), first, "the pool lends the freed buffer");
        assert_eq!(again[0], 7, "as it was: nothing clears it");
        assert_ne!(b.take().as_ptr(), first, "two borrowers never share one");
    }
}
