#include "ParamRelevance.h"

namespace posenc::ParamRelevance {

bool peDiffers(const Params &a, const Params &b)
{
    return a.dModel != b.dModel || a.maxLen != b.maxLen || a.base != b.base || a.layout != b.layout
        || a.angles != b.angles || a.compose != b.compose || a.peColumns() != b.peColumns()
        || a.memoryBudget != b.memoryBudget;
}

bool inputDiffers(const Params &a, const Params &b)
{
    return peDiffers(a, b) || a.scale() != b.scale() || a.sigma() != b.sigma() || a.seed != b.seed
        || a.embeddings != b.embeddings;
}

} // namespace posenc::ParamRelevance
