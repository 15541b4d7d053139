// Nothing to compile: the module is its header, the declaration of libFuzzer's LLVMFuzzerRunDriver.
#include "LibFuzzerDriver.h"
