// The declarations in include/CLibFuzzer.h are all this module offers.
#include "CLibFuzzer.h"
