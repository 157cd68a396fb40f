# The table engine's action codes, one list for its compiled modules (the engine, hkcore/table/flow/_cengine.pyx, and
# the bots it plays, _cbots.pyx and _cvalue.pyx); the pure engine's are hkcore/table/flow/codes.py (a test
# holds the two equal).

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
