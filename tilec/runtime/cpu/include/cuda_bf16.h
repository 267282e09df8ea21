// tilec's CPU model of the GPU stands in for CUDA's headers (tilec/runtime/cpu)
#include "tcpu.h"
