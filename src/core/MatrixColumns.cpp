#include "MatrixColumns.h"

namespace posenc {

std::int64_t dModelOfMatrix(const Params &params, std::int64_t cols)
{
    if (params.concatenates())
        return cols + params.peDims.value_or(cols);
    return cols;
}

} // namespace posenc
