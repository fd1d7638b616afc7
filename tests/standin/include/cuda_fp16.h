// Included by nccl.h; gpubench uses none of its types with the CPU stand-in, so it is empty.
#pragma once
