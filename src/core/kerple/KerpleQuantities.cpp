// KERPLE's own quantity (docs/ARCHITECTURE.md, "The quantity table"): head K's bias matrix as the
// authors' ParallelKerpleLog adds it to the scores, each cell the reference's value in its dtype.
#include "core/kerple/KerpleBias.h"

namespace posenc {

QuantitySpec makeKerpleBiasQuantity()
{
    return HeadBias::biasQuantity(KerpleBias::biasFamily(), Quantity::KerpleBias);
}

} // namespace posenc
