# The efficiency bot's C arithmetic other compiled modules of hkcore call (the table engine's
# hand loop, hkcore/table/flow/_cengine.pyx: Engine.play_efficiency).

from hkcore.core._ccore cimport SuitMemo


cdef class AwayMemo:
    cdef SuitMemo *memo


cdef struct Hand:
    int c[34]        # concealed counts
    int used[34]     # copies of each tile the declared sets use
    int unseen[34]   # copies of each tile the seat has not seen
    int k            # declared sets
    SuitMemo *memo   # where suits' exact costs are kept (NULL: none)

cdef int hand_gain(Hand *h, int now) except -3
cdef int hand_best_discard(Hand *h, const bint *chosen, int *gain, int *tile) except -3
cdef int efficiency_choice(Hand *h, int n, const int *code, const int *tile, int offered) except -3


cdef inline bint near_tile(const int *c, int i, bint orph) noexcept nogil:
    """Whether tile ``i`` may join ``c`` in a set or a pair (held, or within two in its suit of one held),
    or, with ``orph``, is a terminal or an honour (thirteen orphans takes any of those)."""
    cdef int low, high, j
    if c[i] or (orph and (i >= 27 or i % 9 == 0 or i % 9 == 8)):
        return True
    if i < 27:
        low = i - i % 9
        high = low + 8
        for j in range(i - 2 if i - 2 > low else low, (i + 2 if i + 2 < high else high) + 1):
            if c[j]:
                return True
    return False
