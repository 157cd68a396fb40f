# The value bot's C decision other compiled modules of hkcore call (the table engine's hand loop,
# hkcore/table/flow/_cengine.pyx: Engine.play_efficiency, which plays value seats too).

from hkcore.core._ccore cimport SuitMemo


cdef struct VParams:
    int minimum
    bint orphans          # thirteen orphans among the preset's shapes
    int pairs             # seven pairs among them: 0 no, 1 yes, 2 with four of a kind as two pairs
    int concealed
    bint kong_keeps       # a concealed kong keeps the hand concealed
    int self_draw
    int no_bonus
    int seat_flower
    int seat_season
    int bonus_tile
    int dragons[4]
    int seat_wind
    int round_wind
    int half_flush
    int full_flush
    double floor
    double self_draw_share  # what share of the self-draw's faan a plan reckons it has


cdef struct GParams:
    double cost[41]       # by faan: what the discarder pays beyond another seat on a discard win
    double gain[41]       # by faan: what the seat is paid for a win
    int base_faan
    double threat
    double fold_weight
    int fold_away
    double pond
    double flush_suit
    double flush_honour
    double flush_off
    double suji
    double honour
    double pond_honour
    double push
    double keep
    double self_draw_share
    double discard_win[41]
    double self_draw_win[41]
    double decline


cdef class Guard:
    cdef GParams g
    cdef readonly object plain   # the _pyvalue.GuardParams it was made from


cdef class Params:
    cdef VParams p
    cdef readonly object plain   # the _pyvalue.ValueParams it was made from


cdef struct VPos:
    int c[34]             # concealed counts
    int used[34]          # copies of each tile the declared sets use
    int unseen[34]        # copies of each tile the seat has not seen
    int k                 # declared sets
    int melds[4]          # their set codes
    bint claimed
    int live_left
    int seat
    int wind[34]          # the faan of an honour pung of each tile (winds: seat and round)
    int fixed             # the faan the bonus tiles fix
    int shown_n[4]        # by seat: sets shown (not concealed)
    int shown_suits[4]    # by seat: a bit per suit of the shown sets' suited tiles
    bint pond[4][34]      # by seat: the tiles in its pond
    int npond[4]          # by seat: the tiles in its pond, counted
    int shown_dragons[4]  # by seat: the dragon sets it shows
    int win_faan          # the faan of the discard win a claim window offers (-1: none)
    SuitMemo *memo        # where suits' exact costs are kept (NULL: none)


cdef void vpos_winds(const VParams *v, VPos *p, int round_wind) noexcept nogil
cdef int value_fixed(const VParams *v, int seat, const int *bonus, int nbonus) noexcept nogil
cdef int value_choice(const VParams *v, VPos *p, int n, const int *code, const int *tile, int offered) except -3
cdef int guard_decide(const VParams *v, const GParams *g, VPos *p, int n, const int *code, const int *tile,
                      int offered) except -3
