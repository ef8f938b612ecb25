#include "check/rope/RopeRegionFactor.h"
#include "check/DeclaredWords.h"

#include "check/DeviationRegion.h"
#include "check/PairReference.h"
#include "check/TableSample.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::RopeRegionFactor {

namespace {

const QString kMissing = u"attention-factor-missing"_s;

// The rows read at once.
constexpr std::int64_t kChunkCells = std::int64_t(1) << 20;
// How far below 1 the largest |cell| of the deviating rows may stay for their magnitude to read as
// 1: the fast pairs' cosines come within 1e-6 of it over a few hundred positions.
constexpr double kReachesOne = 1e-3;

struct Region
{
    RowRuns runs;
    std::int64_t rows = 0; // deviating rows
    std::int64_t compared = 0;
    double largest = 0.0; // the largest |cell| of the deviating rows
    double referenceLargest = 0.0; // the reference's there
    bool withinOne = true; // every cell of every deviating row within 1 and its rounding
    bool unscaled = true; // every deviating row equal to the reference without its factor
};

bool within(double a, double b, double limit)
{
    return a == b || std::fabs(a - b) <= limit;
}

// One block of rows against the reference's tile of them.
void readTile(const TableMatch &declared, const TableReference::Tile &t, const std::vector<float> &cells,
              std::int64_t row0, std::int64_t cols, double amplitude, Region &region)
{
    for (std::int64_t r = 0; r < t.rows; ++r) {
        const std::int64_t row = t.row0 + r;
        const double position = double(declared.reference->position(row));
        const float *want = t.values + r * t.stride;
        const float *got = cells.data() + (row - row0) * cols;
        bool deviates = false;
        double largest = 0.0, referenceLargest = 0.0;
        bool withinOne = true, unscaled = true;
        for (std::int64_t c = 0; c < cols; ++c) {
            const double limit = kCellRoundingMargin * declared.tolerance.limit(want[c], c, position);
            deviates = deviates || !within(got[c], want[c], limit);
            largest = std::max(largest, std::fabs(double(got[c])));
            referenceLargest = std::max(referenceLargest, std::fabs(double(want[c])));
            withinOne = withinOne && std::fabs(double(got[c])) <= 1.0 + limit;
            unscaled = unscaled && within(got[c], double(want[c]) / amplitude, limit);
        }
        ++region.compared;
        if (!deviates)
            continue;
        region.runs.add(row);
        ++region.rows;
        region.largest = std::max(region.largest, largest);
        region.referenceLargest = std::max(region.referenceLargest, referenceLargest);
        region.withinOne = region.withinOne && withinOne;
        region.unscaled = region.unscaled && unscaled;
    }
}

std::optional<Region> readRegion(const TableMatch &declared, const TableRows &table, double amplitude)
{
    Region region;
    const std::int64_t cols = table.cols();
    const std::int64_t chunk = std::max<std::int64_t>(1, kChunkCells / std::max<std::int64_t>(cols, 1));
    std::vector<float> cells;
    QString error;
    for (std::int64_t r0 = 0; r0 < table.rows(); r0 += chunk) {
        const std::int64_t count = std::min(chunk, table.rows() - r0);
        cells.resize(std::size_t(count * cols));
        if (!table.read(r0, count, cells.data(), error))
            return std::nullopt;
        declared.reference->forEachTile(Block {r0, count, 0, cols}, [&](const TableReference::Tile &t) {
            readTile(declared, t, cells, r0, cols, amplitude, region);
        });
        if (!region.withinOne)
            return std::nullopt;
    }
    return region;
}

} // namespace

std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table)
{
    const auto *reference = dynamic_cast<const PairReference *>(declared.reference.get());
    if (!reference || reference->cols() != table.cols())
        return std::nullopt;
    const double amplitude = reference->spec().schedule.amplitude;
    if (!(amplitude > 1.0 + kReachesOne))
        return std::nullopt;
    const auto region = readRegion(declared, table, amplitude);
    // The deviating rows within 1 and reaching it, where the declared reference's reach past it.
    if (!region || region->rows < 2 || region->largest < 1.0 - kReachesOne
        || region->referenceLargest < 1.0 + kReachesOne / 2)
        return std::nullopt;
    TableMatch m = declared;
    m.mistakes = {kMissing};
    m.correctAgainst.clear();
    m.notes.prepend(m.diagnosis);
    const QString rows = DeviationRegion::rowWords(region->runs, region->rows, region->compared, table.rows());
    m.diagnosis
        = u"attention factor 1 in %1 %6 %2: those rows' cells reach %3 in magnitude, %7 %4 there, its cos and sin not "
          u"multiplied by the attention factor "
          "(LlamaRotaryEmbedding.forward's `cos() * attention_scaling`), as a cache grown past its first rows "
          "by a path that forgets it holds them (sgl-project/sglang#38786); %5"_s.arg(
              rows, NumberText::compact(amplitude, 6), NumberText::compact(region->largest, 6),
              NumberText::compact(region->referenceLargest, 6),
              region->unscaled ? u"without the factor they equal "_s + DeclaredWords::reference()
                               : u"their angles deviate too: beyond the factor, those rows are not the declared "
                                 "frequencies either"_s,
              DeclaredWords::whereGiven(), DeclaredWords::referenceOf());
    return m;
}

} // namespace posenc::RopeRegionFactor
