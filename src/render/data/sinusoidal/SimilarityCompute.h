#pragma once

#include "SimilarityModel.h"
#include "render/data/HeatmapResampler.h"

#include <Eigen/Core>

#include <atomic>
#include <optional>

// The similarity figure's data, computed from the PE table (the one that enters X: k columns in
// concat) without ever forming the L x L matrix.
namespace posenc::SimilarityCompute {

// Row b holds the mean, over the rows of band b, of the PE rows (of unit vectors with `unit`):
// the `count` rows from `first` cut into `bands` equal bands. Exact angles take the closed form
// of a sum of sines over consecutive positions, O(1) per band and column at any L; float32
// angles, and unit rows of odd d, sum the table's rows. Nothing when cancelled.
std::optional<Eigen::MatrixXd> bandMeans(const Engine &engine, std::int64_t first, std::int64_t count, int bands,
                                         bool unit, int threads, const std::atomic<bool> *cancel);

// The refusal of the grid of `visible` over the memory budget (the band means of a chunk of
// columns, the grid, the rows' norms for cosines from the table), or nothing.
std::optional<QString> check(const Engine &engine, const HeatmapRequest &visible, bool cosine);

// The least distance, in layout units, between two measured offsets' markers: the figure's ring
// is 7 units across (SimilarityFigure.cpp), and rings closer than that run into a band. A dense
// table has every few offsets measured, evenly spread.
inline constexpr int kMarkerPitch = 10;

// S(k) in closed form: the sum over whole pairs of cos(k w_i), plus half of cos(k w) for the lone
// sine column of odd d (its mean over p); divided by the mean squared norm with `cosine`.
double closedForm(const Params &params, double k, bool cosine);

// The grid of S over the cells of `visible` (the mean of S over each cell's positions is the dot
// product of the band means of PE), S(k) over `offsets` drawn on `pixels`, its measured dots spread
// over `width` layout units no closer than kMarkerPitch. Nothing when cancelled.
std::optional<SimilarityData> compute(const Engine &engine, const HeatmapRequest &visible, bool cosine,
                                      const ViewRange &offsets, int pixels, int width, int threads,
                                      const std::atomic<bool> *cancel);

} // namespace posenc::SimilarityCompute
