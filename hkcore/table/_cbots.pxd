# The efficiency bot's C arithmetic other compiled modules of hkcore call (the table engine's
# hand loop, hkcore/table/_cengine.pyx: Engine.play_efficiency).

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
