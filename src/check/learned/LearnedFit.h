#pragma once

#include "check/TableSample.h"

#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

// What a table that is neither a sinusoid nor a RoPE table holds (docs/ARCHITECTURE.md,
// Checking a table): a learned table's rows change smoothly from position to position, so
// neighbouring rows point the same way and rows far apart less so; random numbers do neither.
// Its first rows may be padding (zeros, padding_idx) or never trained (rows no position reads,
// left as initialised): RoBERTa, XLM-R, BART and OPT read positions from row 2 (transformers#20761).
namespace posenc::LearnedFit {

struct Structure
{
    bool learned = false;
    std::int64_t firstPositionRow = 0;
    std::vector<std::int64_t> zeroRows; // among the leading rows
    std::vector<std::int64_t> untrainedRows; // leading rows unlike the rows after them
    double neighbourCosine = 0.0; // median cosine of rows one position apart
    // The median cosine of rows k positions apart, for k = 1, 2, 4, ... as far as the sample reaches.
    std::vector<std::pair<std::int64_t, double>> cosineByDistance;
};

Structure analyse(const TableSample &sample);

} // namespace posenc::LearnedFit
