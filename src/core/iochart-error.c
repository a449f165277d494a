#include "iochart-error.h"

G_DEFINE_QUARK (iochart-error-quark, iochart_error)
