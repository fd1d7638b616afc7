# Finds rdma-core's libibverbs (and librdmacm when present).
find_path(IBVerbs_INCLUDE_DIR infiniband/verbs.h)
find_library(IBVerbs_LIBRARY ibverbs)
find_path(RDMACM_INCLUDE_DIR rdma/rdma_cma.h)
find_library(RDMACM_LIBRARY rdmacm)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(IBVerbs REQUIRED_VARS IBVerbs_INCLUDE_DIR IBVerbs_LIBRARY)
if(IBVerbs_FOUND AND NOT TARGET IBVerbs::ibverbs)
  add_library(IBVerbs::ibverbs UNKNOWN IMPORTED)
  set_target_properties(IBVerbs::ibverbs PROPERTIES IMPORTED_LOCATION "${IBVerbs_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${IBVerbs_INCLUDE_DIR}")
endif()
if(RDMACM_INCLUDE_DIR AND RDMACM_LIBRARY AND NOT TARGET IBVerbs::rdmacm)
  add_library(IBVerbs::rdmacm UNKNOWN IMPORTED)
  set_target_properties(IBVerbs::rdmacm PROPERTIES IMPORTED_LOCATION "${RDMACM_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${RDMACM_INCLUDE_DIR}")
endif()
mark_as_advanced(IBVerbs_INCLUDE_DIR IBVerbs_LIBRARY RDMACM_INCLUDE_DIR RDMACM_LIBRARY)
