#pragma once

#include "Detail.h"
#include "FigureModel.h"
#include "HeatmapResampler.h"

#include <QList>

#include <atomic>
#include <optional>

namespace posenc {

// Points of a scatter, x and y.
struct ScatterPoints
{
    QList<double> x, y;

    void add(double a, double b)
    {
        x.append(a);
        y.append(b);
    }
    qsizetype size() const { return x.size(); }
};

// What dropout does to each cell (docs/ARCHITECTURE.md, The mathematics), on the cells in view:
// X, the keep mask and Y in training and in evaluation; each cell's input against its output;
// and the fraction dropped against p.
struct DropoutAnatomyData : FigureData
{
    Params params;
    HeatmapGrid input; // X
    HeatmapGrid mask; // the mask in training
    HeatmapGrid training; // Y in training
    HeatmapGrid evaluation; // Y in evaluation
    // The dropout's input and output cell by cell: X and Y, or s·E and Y − PE in embedding mode
    // (whose dropout acts on s·E alone). By what happened to the cell: kept (x 1/(1-p)), dropped
    // (0), passed through (protect-special's rows: x 1), zeroed (masked-fill's padding).
    ScatterPoints kept, dropped, passed, zeroed;
    std::int64_t scatterCells = 0;
    // Cells whose input or output is NaN or infinite (a loaded matrix may hold them): no point
    // on the plot, counted in its title.
    std::int64_t nonFiniteCells = 0;
    bool scatterEveryRow = true; // else evenly spaced rows of the view
    // The fraction of the same cells dropped at each p, with the same seed: the cells in view
    // under dropout (not the rows passed through or zeroed), evenly spaced rows past a budget.
    QList<double> probabilities, dropFractions;
    std::int64_t countedCells = 0; // n
    double measuredAtP = 0.0; // at the parameters' p
};

namespace DropoutAnatomyCompute {

// The probabilities the drop fraction is measured at: 0, 0.025, ..., 1.
QList<double> probabilities();

std::optional<DropoutAnatomyData> compute(const Engine &engine, const HeatmapRequest &visible, Detail detail,
                                          const ComputeOptions &options);

// Y in training as a formula of the mode: "Y = M ⊙ X / (1−p)", "Y = M ⊙ s·E / (1−p) + PE".
QString trainingFormula(const Params &params);

// sqrt(p (1 - p) / n): the standard deviation of the fraction of n cells dropped at p.
double sigma(double p, std::int64_t n);

} // namespace DropoutAnatomyCompute

} // namespace posenc
