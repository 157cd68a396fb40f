# The core's C functions other compiled modules of hkcore call (the table engine, hkcore/table/_cengine.pyx).

cdef bint standard_shape(const int *c) noexcept nogil
cdef bint orphans_shape(const int *c) noexcept nogil
cdef int away_counts(const int *c, int k, const int *used) except -3
cdef int away_each(int *c, int k, const int *used, int delta, const bint *which, int *out) except -3
