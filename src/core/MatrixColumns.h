#pragma once

#include "Params.h"

#include <cstdint>

namespace posenc {

// d_model of a model whose token embeddings are the rows of a matrix with `cols` columns
// (docs/ARCHITECTURE.md, Embedding rows): a loaded matrix fixes it. In a sum it is the matrix's
// columns; in a concatenation the PE's columns come on top, pe_dims of them, or as many as E has
// when pe_dims is auto. The command line, the window's controls and a matrix loaded in the window
// agree on it.
std::int64_t dModelOfMatrix(const Params &params, std::int64_t cols);

} // namespace posenc
