# The bots' choices inside the compiled engine (hkcore/table/players/_cloop.pyx), for the compiled modules above the
# players that play a hand with them (hkcore/table/learning/_cvec.pyx).

from hkcore.table.flow._cengine cimport Engine
from hkcore.table.players._cbots cimport AwayMemo
from hkcore.table.players._cvalue cimport Guard, Params


cdef int efficiency_index(Engine e, int s, bint hide, AwayMemo memo) except -3
cdef int value_index(Engine e, int s, bint hide, AwayMemo memo, Params params, int round_wind, Guard guard) except -3
