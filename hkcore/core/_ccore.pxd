# The core's C functions other compiled modules of hkcore call (the table engine, hkcore/table/flow/_cengine.pyx).

cdef bint standard_shape(const int *c) noexcept nogil
cdef bint orphans_shape(const int *c) noexcept nogil
cdef bint pairs_shape(const int *c, int pairs) noexcept nogil
cdef int away_counts(const int *c, int k, const int *used) except -3
cdef int away_each(int *c, int k, const int *used, int delta, const bint *which, int *out) except -3

# Exact costs of suits some declared sets draw on, remembered by their owner (hkcore/table/players/_cbots.pyx: AwayMemo)
# so that the dynamic programme runs once per (suit, copies left, sets wanted): a direct-mapped table.
cdef enum:
    MEMO_BITS = 17
    MEMO_SIZE = 131072   # 1 << MEMO_BITS

cdef struct MemoSlot:       # a key beside its answer: one cache line read for both
    unsigned long long key  # 0: empty; else 1 + the suit's key, its caps and the sets wanted
    unsigned char cost[10]  # the (sets, pairs) costs

cdef struct SuitMemo:
    MemoSlot slot[MEMO_SIZE]

cdef int away_counts_memo(const int *c, int k, const int *used, SuitMemo *memo) except -3
cdef int away_shapes_memo(const int *c, int k, const int *used, bint orphans, SuitMemo *memo,
                          int pairs) except -3
cdef int away_each_memo(int *c, int k, const int *used, int delta, const bint *which, int *out,
                        SuitMemo *memo) except -3
cdef int away_swaps(int *c, int k, const int *used, const bint *minus, const bint *plus, int *out,
                    SuitMemo *memo) except -3
# the same by the standard shape, thirteen orphans only with ``orphans`` and seven pairs only with ``pairs``
# (0: off; 1: on; 2: a four of a kind counting as two pairs) (the value bot: a preset's shapes)
cdef int away_each_shapes(int *c, int k, const int *used, int delta, const bint *which, int *out,
                          SuitMemo *memo, bint orphans, int pairs) except -3
cdef int away_swaps_shapes(int *c, int k, const int *used, const bint *minus, const bint *plus, int *out,
                           SuitMemo *memo, bint orphans, int pairs) except -3
# away_swaps_shapes where only the answers below ``under`` are wanted exactly (the others: 99)
cdef int away_swaps_under(int *c, int k, const int *used, const bint *minus, const bint *plus, int *out,
                          SuitMemo *memo, int under, bint orphans, int pairs) except -3
