# The table engine's codes for its compiled modules (the engine, hkcore/table/flow/_cengine.pyx, and the players'
# compiled modules, hkcore/table/players/_cbots.pyx, _cvalue.pyx and _cloop.pyx): the C mirror of
# hkcore/table/flow/codes.py, their one home (tests/test_table.py holds every value here equal to it).

# actions, in the order a prompt lists them where it matters
cdef enum:
    PASS = 0
    WIN = 1
    CONCEALED = 2
    ADDED = 3
    EXPOSED = 4
    PUNG = 5
    CHOW = 6
    DISCARD = 7
    SELF_PUNG = 8

# phases
cdef enum:
    TURN = 0
    DISCARD_ONLY = 1
    CLAIM = 2
    ROB = 3
    INSTANT = 4
    OVER = 5
    DEAL = 6

# what an instant window follows
cdef enum:
    AFTER_DEAL = 1
    AFTER_G4 = 2

# kinds of declared set
cdef enum:
    M_CHOW = 0
    M_PUNG = 1
    M_KONG = 2
