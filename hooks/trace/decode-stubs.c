#include "trace.h"






const struct decoder dec_time[] = { { 0, 0, 0, 0 } };
const struct decoder dec_misc[] = { { 0, 0, 0, 0 } };
