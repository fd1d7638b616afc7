// The CPU stand-in's CUDA driver API: the types and values the RDMA code's GPU memory uses
// (values as in CUDA's cuda.h). The functions are reached through
// cudaGetDriverEntryPointByVersion, as gpubench reaches the real driver's.
#pragma once

#include "cuda_runtime_api.h"

enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_NOT_SUPPORTED = 801
};
typedef enum cudaError_enum CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum CUdevice_attribute_enum { CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124 };
typedef enum CUdevice_attribute_enum CUdevice_attribute;

enum CUmemRangeHandleType_enum { CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 1 };
typedef enum CUmemRangeHandleType_enum CUmemRangeHandleType;
