//! PyTorch's CUDA caching allocator, replayed: every rule below is the allocator's own
//! (c10/cuda/CUDACachingAllocator.cpp @001074d, `DeviceCachingAllocator`), so that
//! `max_memory_allocated` and `max_memory_reserved` come out of a replay of the run's
//! allocations instead of a percentage.
//!
//! - sizes round up to 512 B (`kMinBlockSize`, `round_size`);
//! - requests up to 1 MiB (`kSmallSize`) use the small pool, larger ones the large pool;
//! - a request no cached block fits gets a new segment (`get_allocation_size`): 2 MiB for the
//!   small pool (`kSmallBuffer`), 20 MiB for requests under 10 MiB (`kLargeBuffer`,
//!   `kMinLargeAlloc`), else the request rounded up to 2 MiB (`kRoundLarge`);
//! - a cached block is found by best fit among the free blocks of the same pool **and the
//!   same stream** (`get_free_block`, `BlockComparatorSize` orders by stream, then size): a
//!   block freed on one stream is never reused by another, which is why FSDP's all-gather and
//!   reduce-scatter streams hold memory of their own;
//! - a block larger than the request is split when the rest is worth keeping (`should_split`:
//!   ≥ 512 B in the small pool; > 1 MiB in the large pool and the request under
//!   `max_split_size`); unsplit, the whole block counts as allocated;
//! - a freed block merges with free neighbours of its segment (`free_block`,
//!   `try_merge_blocks`); segments are never returned (the cache), so reserved only grows;
//! - `expandable_segments:True`: one segment per stream and pool that grows by 2 MiB (small)
//!   or 20 MiB (large) pages at its end, and splits at 512 B granularity (Note [Expandable
//!   Segments]).

const MIN_BLOCK: u64 = 512;
const SMALL_SIZE: u64 = 1 << 20;
const SMALL_BUFFER: u64 = 2 << 20;
const LARGE_BUFFER: u64 = 20 << 20;
const MIN_LARGE_ALLOC: u64 = 10 << 20;
const ROUND_LARGE: u64 = 2 << 20;

/// A CUDA stream, as the allocator sees it: the compute stream is 0.
pub type Stream = u8;

/// `PYTORCH_CUDA_ALLOC_CONF` settings the replay honours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub expandable_segments: bool,
    /// `max_split_size_mb`, bytes; `u64::MAX` is the default (unlimited).
    pub max_split_size: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config { expandable_segments: false, max_split_size: u64::MAX }
    }
}

impl Config {
    /// The settings a run's `alloc` mode stands for (`max_split_size_mb` unset).
    pub fn of(mode: crate::query::AllocatorMode) -> Config {
        Config { expandable_segments: mode == crate::query::AllocatorMode::Expandable, ..Config::default() }
    }
}

/// A block of a segment: neighbours form the segment's address order (as `Block::prev`/`next`
/// in the allocator), so merging a freed block is O(1).
#[derive(Debug, Clone, Copy)]
struct Block {
    size: u64,
    allocated: bool,
    prev: Option<usize>,
    next: Option<usize>,
    pool: usize,
}

/// Free blocks of one stream and size class, found by best fit (the allocator's
/// `BlockPool::blocks`, a `std::set` ordered by (size, address)). The large pool keeps
/// (size, block) order, the block index standing for the address, in tiers (`tier`); the small
/// pool, whose sizes are multiples of 512 B up to 1 MiB and which holds hundreds of segment
/// remainders, one list per size class with a bitmap of the non-empty ones, the block put in
/// last (freed, split off or merged) first: the replay has no addresses to order equal sizes by.
#[derive(Debug, Clone)]
struct Pool {
    stream: Stream,
    small: bool,
    free: FreeList,
    tail: Option<usize>,
}

/// Size classes of the small pool: 512 B steps up to a 2 MiB segment's whole block.
const SMALL_CLASSES: usize = (SMALL_BUFFER / MIN_BLOCK) as usize + 1;
const SMALL_WORDS: usize = SMALL_CLASSES.div_ceil(64);

const NONE: u32 = u32::MAX;

/// Tiers of the large pool's free list: four per power of two of a 64-bit size.
const TIERS: usize = 256;

/// A size's tier: its power of two and the next two bits, in increasing order of size.
fn tier(size: u64) -> usize {
    let s = size.max(4);
    let p = 63 - s.leading_zeros() as usize;
    p * 4 + ((s >> (p - 2)) & 3) as usize
}

// Six pools at most (two per stream): the small pool's bucket heads inline cost little.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
enum FreeList {
    /// (size, block) in order, split into tiers of a quarter of a power of two each (`tier`)
    /// so that each stays a few entries long, with a bitmap of the non-empty tiers.
    Sorted { tiers: Vec<Vec<(u64, usize)>>, nonempty: [u64; TIERS / 64] },
    /// One list per size class, threaded through `Links`, with a bitmap of the non-empty ones.
    /// `words` has bit w set when `nonempty[w]` is not 0 (65 words: a u128).
    Buckets { heads: Vec<u32>, nonempty: [u64; SMALL_WORDS], words: u128 },
}

/// A small-pool block's neighbours in its size class's free list (`NONE` at the ends).
#[derive(Debug, Clone, Copy)]
struct Link {
    prev: u32,
    next: u32,
}

impl FreeList {
    fn new(buckets: bool) -> Self {
        if buckets {
            FreeList::Buckets { heads: vec![NONE; SMALL_CLASSES], nonempty: [0; SMALL_WORDS], words: 0 }
        } else {
            FreeList::Sorted { tiers: vec![Vec::new(); TIERS], nonempty: [0; TIERS / 64] }
        }
    }
    fn class(size: u64) -> usize {
        (size / MIN_BLOCK) as usize
    }
    fn insert(&mut self, size: u64, i: usize, links: &mut Vec<Link>) {
        match self {
            FreeList::Sorted { tiers, nonempty } => {
                let t = tier(size);
                let v = &mut tiers[t];
                let at = v.partition_point(|&k| k < (size, i));
                v.insert(at, (size, i));
                nonempty[t / 64] |= 1 << (t % 64);
            }
            FreeList::Buckets { heads, nonempty, words } => {
                let c = Self::class(size);
                if links.len() <= i {
                    links.resize(i + 1, Link { prev: NONE, next: NONE });
                }
                let old = heads[c];
                links[i] = Link { prev: NONE, next: old };
                if old != NONE {
                    links[old as usize].prev = i as u32;
                }
                heads[c] = i as u32;
                nonempty[c / 64] |= 1 << (c % 64);
                *words |= 1 << (c / 64);
            }
        }
    }
    fn remove(&mut self, size: u64, i: usize, links: &mut [Link]) {
        match self {
            FreeList::Sorted { tiers, nonempty } => {
                let t = tier(size);
                let v = &mut tiers[t];
                let at = v.partition_point(|&k| k < (size, i));
                debug_assert_eq!(v.get(at), Some(&(size, i)));
                v.remove(at);
                if v.is_empty() {
                    nonempty[t / 64] &= !(1 << (t % 64));
                }
            }
            FreeList::Buckets { heads, nonempty, words } => {
                let c = Self::class(size);
                let Link { prev, next } = links[i];
                if prev == NONE {
                    debug_assert_eq!(heads[c], i as u32);
                    heads[c] = next;
                } else {
                    links[prev as usize].next = next;
                }
                if next != NONE {
                    links[next as usize].prev = prev;
                }
                if heads[c] == NONE {
                    nonempty[c / 64] &= !(1 << (c % 64));
                    if nonempty[c / 64] == 0 {
                        *words &= !(1 << (c / 64));
                    }
                }
            }
        }
    }
    /// The smallest free block of at least `size` bytes: the lowest index among equals in
    /// the large pool; in the small pool's classes, the one freed last.
    fn best_fit(&self, size: u64) -> Option<(u64, usize)> {
        match self {
            FreeList::Sorted { tiers, nonempty } => {
                // The first entry of at least `size` in its own tier, else the smallest of the
                // next non-empty tier.
                let t = tier(size);
                let v = &tiers[t];
                if let Some(&e) = v.get(v.partition_point(|&(s, _)| s < size)) {
                    return Some(e);
                }
                let mut w = (t + 1) / 64;
                let mut bits = if t + 1 < TIERS { nonempty[w] & (!0u64 << ((t + 1) % 64)) } else { 0 };
                loop {
                    if bits != 0 {
                        return tiers[w * 64 + bits.trailing_zeros() as usize].first().copied();
                    }
                    w += 1;
                    if w >= nonempty.len() {
                        return None;
                    }
                    bits = nonempty[w];
                }
            }
            FreeList::Buckets { heads, nonempty, words } => {
                let c = Self::class(size);
                let w = c / 64;
                let bits = nonempty[w] & (!0u64 << (c % 64));
                let c = if bits != 0 {
                    w * 64 + bits.trailing_zeros() as usize
                } else {
                    // The next non-empty word past `w`, from the summary.
                    let rest = words.checked_shr(w as u32 + 1).unwrap_or(0);
                    if rest == 0 {
                        return None;
                    }
                    let w = w + 1 + rest.trailing_zeros() as usize;
                    w * 64 + nonempty[w].trailing_zeros() as usize
                };
                Some((c as u64 * MIN_BLOCK, heads[c] as usize))
            }
        }
    }
}

/// Handle of a live allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Allocation(usize);

impl Allocation {
    /// The block it occupies: unique among live allocations, reused after a free.
    pub fn index(self) -> usize {
        self.0
    }
}

/// The allocator's state and its peak statistics.
#[derive(Debug, Clone)]
pub struct CachingAllocator {
    cfg: Config,
    blocks: Vec<Block>,
    spare: Vec<usize>,
    /// The small pools' free lists, by block.
    links: Vec<Link>,
    /// The pool of each of the first four streams, large and small.
    pool_of: [[Option<u8>; 2]; 4],
    pools: Vec<Pool>,
    pub allocated: u64,
    pub reserved: u64,
    pub peak_allocated: u64,
    pub peak_reserved: u64,
}

/// Bytes a request of `size` occupies once rounded (`round_size`).
pub fn round_size(size: u64) -> u64 {
    if size < MIN_BLOCK {
        MIN_BLOCK
    } else {
        size.div_ceil(MIN_BLOCK).saturating_mul(MIN_BLOCK)
    }
}

/// Size of the segment cudaMalloc'ed for a request no cached block fits (`get_allocation_size`).
pub fn segment_size(size: u64) -> u64 {
    if size <= SMALL_SIZE {
        SMALL_BUFFER
    } else if size < MIN_LARGE_ALLOC {
        LARGE_BUFFER
    } else {
        size.div_ceil(ROUND_LARGE).saturating_mul(ROUND_LARGE)
    }
}

impl CachingAllocator {
    pub fn new(cfg: Config) -> Self {
        CachingAllocator {
            cfg,
            blocks: Vec::with_capacity(2048),
            spare: Vec::new(),
            links: Vec::new(),
            pool_of: [[None; 2]; 4],
            pools: Vec::with_capacity(6),
            allocated: 0,
            reserved: 0,
            peak_allocated: 0,
            peak_reserved: 0,
        }
    }

    fn new_block(&mut self, b: Block) -> usize {
        if let Some(i) = self.spare.pop() {
            self.blocks[i] = b;
            i
        } else {
            self.blocks.push(b);
            self.blocks.len() - 1
        }
    }

    fn pool(&mut self, stream: Stream, small: bool) -> usize {
        let (s, k) = (stream as usize, usize::from(small));
        if let Some(&Some(p)) = self.pool_of.get(s).map(|x| &x[k]) {
            return p as usize;
        }
        match self.pools.iter().position(|p| p.stream == stream && p.small == small) {
            Some(p) => p,
            None => {
                // An expandable small pool's free blocks merge past 2 MiB, beyond the buckets'
                // size classes: it keeps the sorted list.
                let buckets = small && !self.cfg.expandable_segments;
                self.pools.push(Pool { stream, small, free: FreeList::new(buckets), tail: None });
                if let Some(x) = self.pool_of.get_mut(s) {
                    x[k] = Some((self.pools.len() - 1) as u8);
                }
                self.pools.len() - 1
            }
        }
    }

    fn should_split(&self, small: bool, block: u64, size: u64) -> bool {
        let rest = block - size;
        if small || self.cfg.expandable_segments {
            rest >= MIN_BLOCK
        } else {
            size < self.cfg.max_split_size && rest > SMALL_SIZE
        }
    }

    /// Allocates `size` bytes on `stream`.
    pub fn malloc(&mut self, size: u64, stream: Stream) -> Allocation {
        let size = round_size(size);
        let small = size <= SMALL_SIZE;
        let p = self.pool(stream, small);
        let i = match self.pools[p].free.best_fit(size) {
            // An oversize cached block (≥ max_split_size) does not serve a request below it
            // (get_free_block).
            Some((bsize, _)) if size < self.cfg.max_split_size && bsize >= self.cfg.max_split_size => {
                self.grow(size, p)
            }
            Some((bsize, i)) => {
                self.pools[p].free.remove(bsize, i, &mut self.links);
                i
            }
            None => self.grow(size, p),
        };
        // Split off the rest as a free block right after this one.
        let b = self.blocks[i];
        if b.size > size && self.should_split(small, b.size, size) {
            let rest =
                self.new_block(Block { size: b.size - size, allocated: false, prev: Some(i), next: b.next, pool: p });
            if let Some(n) = b.next {
                self.blocks[n].prev = Some(rest);
            }
            self.blocks[i].next = Some(rest);
            self.blocks[i].size = size;
            if self.pools[p].tail == Some(i) {
                self.pools[p].tail = Some(rest);
            }
            self.pools[p].free.insert(b.size - size, rest, &mut self.links);
        }
        self.blocks[i].allocated = true;
        self.allocated = self.allocated.saturating_add(self.blocks[i].size);
        self.peak_allocated = self.peak_allocated.max(self.allocated);
        Allocation(i)
    }

    /// A free block (not in the free list) of at least `size` from new device memory.
    fn grow(&mut self, size: u64, p: usize) -> usize {
        let small = self.pools[p].small;
        if self.cfg.expandable_segments {
            // One segment per stream and pool, mapped page by page at its end: a free block at
            // the end grows; else new pages start one.
            let page = if small { SMALL_BUFFER } else { LARGE_BUFFER };
            let tail = self.pools[p].tail.filter(|&t| !self.blocks[t].allocated);
            let have = tail.map_or(0, |t| self.blocks[t].size);
            let add = (size - have.min(size)).div_ceil(page).saturating_mul(page);
            self.reserved = self.reserved.saturating_add(add);
            self.peak_reserved = self.peak_reserved.max(self.reserved);
            match tail {
                Some(t) => {
                    self.pools[p].free.remove(have, t, &mut self.links);
                    self.blocks[t].size += add;
                    t
                }
                None => {
                    let prev = self.pools[p].tail;
                    let i = self.new_block(Block { size: add, allocated: false, prev, next: None, pool: p });
                    if let Some(t) = prev {
                        self.blocks[t].next = Some(i);
                    }
                    self.pools[p].tail = Some(i);
                    i
                }
            }
        } else {
            let bytes = segment_size(size);
            self.reserved = self.reserved.saturating_add(bytes);
            self.peak_reserved = self.peak_reserved.max(self.reserved);
            self.new_block(Block { size: bytes, allocated: false, prev: None, next: None, pool: p })
        }
    }

    /// Returns an allocation to the cache, merging it with free neighbours.
    pub fn free(&mut self, a: Allocation) {
        let mut i = a.0;
        debug_assert!(self.blocks[i].allocated);
        self.blocks[i].allocated = false;
        self.allocated = self.allocated.saturating_sub(self.blocks[i].size);
        let p = self.blocks[i].pool;
        if let Some(n) = self.blocks[i].next.filter(|&n| !self.blocks[n].allocated) {
            let nb = self.blocks[n];
            self.pools[p].free.remove(nb.size, n, &mut self.links);
            self.blocks[i].size += nb.size;
            self.blocks[i].next = nb.next;
            if let Some(nn) = nb.next {
                self.blocks[nn].prev = Some(i);
            }
            if self.pools[p].tail == Some(n) {
                self.pools[p].tail = Some(i);
            }
            self.spare.push(n);
        }
        if let Some(pr) = self.blocks[i].prev.filter(|&pr| !self.blocks[pr].allocated) {
            let b = self.blocks[i];
            self.pools[p].free.remove(self.blocks[pr].size, pr, &mut self.links);
            self.blocks[pr].size += b.size;
            self.blocks[pr].next = b.next;
            if let Some(n) = b.next {
                self.blocks[n].prev = Some(pr);
            }
            if self.pools[p].tail == Some(i) {
                self.pools[p].tail = Some(pr);
            }
            self.spare.push(i);
            i = pr;
        }
        let size = self.blocks[i].size;
        self.pools[p].free.insert(size, i, &mut self.links);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const MIB: u64 = 1 << 20;

    #[test]
    fn sizes_round_to_512_bytes() {
        assert_eq!(round_size(1), 512);
        assert_eq!(round_size(512), 512);
        assert_eq!(round_size(513), 1024);
        let mut a = CachingAllocator::new(Config::default());
        a.malloc(100, 0);
        assert_eq!(a.allocated, 512);
    }

    #[test]
    fn small_requests_pack_into_two_mib_segments() {
        let mut a = CachingAllocator::new(Config::default());
        for _ in 0..4 {
            a.malloc(512 * 1024, 0);
        }
        assert_eq!(a.reserved, 2 * MIB, "four 512 KiB tensors fill one 2 MiB segment");
        a.malloc(512 * 1024, 0);
        assert_eq!(a.reserved, 4 * MIB, "the fifth opens another");
        assert_eq!(a.allocated, 5 * MIB / 2);
    }

    #[test]
    fn mid_size_requests_take_twenty_mib_segments_and_large_ones_round_to_two_mib() {
        let mut a = CachingAllocator::new(Config::default());
        a.malloc(3 * MIB, 0);
        assert_eq!(a.reserved, 20 * MIB);
        a.malloc(5 * MIB, 0);
        assert_eq!(a.reserved, 20 * MIB, "the second request splits the first segment's rest");
        let mut b = CachingAllocator::new(Config::default());
        b.malloc(11 * MIB + 1, 0);
        assert_eq!(b.reserved, 12 * MIB);
    }

    #[test]
    fn a_large_block_is_not_split_for_a_rest_of_one_mib_or_less() {
        let mut a = CachingAllocator::new(Config::default());
        let x = a.malloc(100 * MIB, 0);
        a.free(x);
        a.malloc(99 * MIB + MIB / 2, 0);
        // Rest 0.5 MiB ≤ kSmallSize: the whole cached block is handed out and counted.
        assert_eq!(a.allocated, 100 * MIB);
        assert_eq!(a.reserved, 100 * MIB);
    }

    #[test]
    fn freed_blocks_are_reused_on_their_own_stream_only() {
        let mut a = CachingAllocator::new(Config::default());
        let x = a.malloc(64 * MIB, 1);
        a.free(x);
        a.malloc(64 * MIB, 0);
        assert_eq!(a.reserved, 128 * MIB, "a block cached on the all-gather stream serves only that stream");
        a.malloc(64 * MIB, 1);
        assert_eq!(a.reserved, 128 * MIB);
    }

    #[test]
    fn best_fit_and_merging_of_neighbours() {
        let mut a = CachingAllocator::new(Config::default());
        let x = a.malloc(40 * MIB, 0);
        let y = a.malloc(40 * MIB, 0);
        a.free(x);
        a.free(y);
        // Separate segments do not merge: an 80 MiB request needs a new segment.
        a.malloc(80 * MIB, 0);
        assert_eq!(a.reserved, 160 * MIB);
        // Within one segment, freed neighbours merge back into one block.
        let mut b = CachingAllocator::new(Config::default());
        let s = b.malloc(100 * MIB, 0);
        b.free(s);
        let p = b.malloc(30 * MIB, 0);
        let q = b.malloc(30 * MIB, 0);
        b.free(p);
        b.free(q);
        b.malloc(100 * MIB, 0);
        assert_eq!(b.reserved, 100 * MIB);
        assert_eq!(b.peak_allocated, 100 * MIB);
    }

    #[test]
    fn fragmentation_raises_reserved_above_allocated() {
        // A growing sequence of activations: each new, larger tensor fits no freed block.
        let mut a = CachingAllocator::new(Config::default());
        for i in 1..=10u64 {
            let t = a.malloc(i * 30 * MIB, 0);
            a.free(t);
        }
        assert_eq!(a.peak_allocated, 300 * MIB);
        assert!(a.peak_reserved > 1000 * MIB, "{}", a.peak_reserved / MIB);
        // Expandable segments grow one segment instead: reserved stays near the peak.
        let mut e = CachingAllocator::new(Config { expandable_segments: true, ..Config::default() });
        for i in 1..=10u64 {
            let t = e.malloc(i * 30 * MIB, 0);
            e.free(t);
        }
        assert!(e.peak_reserved <= 320 * MIB, "{}", e.peak_reserved / MIB);
    }

    #[test]
    fn expandable_small_pool_merges_freed_pages_past_one_segment() {
        // Small requests fill 2 MiB pages of one growing segment; freed, they merge into one
        // block larger than a page, which serves a later small request.
        let mut e = CachingAllocator::new(Config { expandable_segments: true, ..Config::default() });
        let xs: Vec<_> = (0..12).map(|_| e.malloc(512 * 1024, 0)).collect();
        assert_eq!(e.reserved, 6 * MIB);
        for x in xs {
            e.free(x);
        }
        e.malloc(1024 * 1024, 0);
        assert_eq!(e.reserved, 6 * MIB, "the merged block serves it");
    }

    #[test]
    fn max_split_size_keeps_oversize_blocks_whole() {
        let cfg = Config { max_split_size: 64 * MIB, ..Config::default() };
        let mut a = CachingAllocator::new(cfg);
        let x = a.malloc(200 * MIB, 0);
        a.free(x);
        a.malloc(30 * MIB, 0);
        assert_eq!(a.reserved, 230 * MIB, "an oversize cached block does not serve a small request");
    }

    #[test]
    fn best_fit_looks_past_its_own_size_tier() {
        // Free blocks of 40, 100 and 130 MiB sit in three tiers of the large pool: a 90 MiB
        // request takes the 100 MiB block (the smallest that fits, from the next tier) and a
        // 120 MiB one the 130 MiB block, without new segments.
        let mut a = CachingAllocator::new(Config::default());
        let xs: Vec<_> = [40, 100, 130].iter().map(|m| a.malloc(m * MIB, 0)).collect();
        let _keep = a.malloc(2 * MIB, 0);
        for x in xs {
            a.free(x);
        }
        // The 2 MiB request took a 20 MiB segment (kLargeBuffer).
        assert_eq!(a.reserved, 290 * MIB);
        a.malloc(90 * MIB, 0);
        a.malloc(120 * MIB, 0);
        assert_eq!(a.reserved, 290 * MIB, "both served from cached blocks");
        a.malloc(200 * MIB, 0);
        assert_eq!(a.reserved, 490 * MIB, "nothing cached fits 200 MiB");
        assert!(tier(100 * MIB) > tier(90 * MIB) && tier(130 * MIB) > tier(100 * MIB));
        assert!((1..64).all(|p| tier((1u64 << p) + 1) >= tier(1 << p)));
        assert!((0..4096u64).all(|s| tier(s) <= tier(s + 1)) && tier(u64::MAX) < TIERS);
    }

    #[test]
    fn a_small_block_leaves_its_size_list_from_the_middle_when_it_merges() {
        // Three 256 KiB blocks freed apart sit in one size class; freeing their neighbours
        // merges each back into a whole 2 MiB segment, taking it out of the class's list.
        let mut a = CachingAllocator::new(Config::default());
        let x: Vec<_> = (0..8).map(|_| a.malloc(256 * 1024, 0)).collect();
        for i in [1, 3, 5] {
            a.free(x[i]);
        }
        for i in [0, 2, 4, 6, 7] {
            a.free(x[i]);
        }
        assert_eq!(a.allocated, 0);
        // 1 MiB is the small pool's largest request: only a merged run of four blocks holds it.
        let y = a.malloc(MIB, 0);
        assert_eq!(a.reserved, 2 * MIB, "the merged segment serves it");
        a.free(y);
    }
}
