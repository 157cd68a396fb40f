# The core's C functions other compiled modules of hkcore call (the table engine, hkcore/table/_cengine.pyx).

cdef bint standard_shape(const int *c) noexcept nogil
cdef bint orphans_shape(const int *c) noexcept nogil
