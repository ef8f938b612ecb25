#pragma once

#include "FigurePlot.h"

#include "data/FigureModel.h"

#include <QLocale>

#include <memory>

namespace posenc {

// One figure, whole (docs/ARCHITECTURE.md, "One descriptor per figure"): its model (name,
// options and their validation, inputs, widget-free data) and its drawing. The window's views,
// `posenc export`, the Export figure dialog, Export data and sessions all reach a figure through
// its descriptor.
class FigureDescriptor
{
public:
    virtual ~FigureDescriptor() = default;

    // Everything of the figure that runs without widgets, on any thread.
    virtual const FigureModel &model() const = 0;
    // Builds the figure's layout into `plot`, emptied first; GUI thread only.
    virtual std::unique_ptr<FigurePlot> build(QCustomPlot *plot) const = 0;
    // What the drawing makes of `data` before it draws it, on any thread (the job's, so that the
    // GUI thread does not copy a long series point by point): handed to FigurePlot::setPrepared.
    // None for a drawing that prepares nothing. `request` is what the data was computed for (a
    // heatmap's coverage is made for its panel's pixels).
    virtual std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data, const FigureRequest &request) const = 0;

    QString name() const { return model().name(); }
};

// The descriptor of a figure whose model is `Model` and whose drawing is `Plot` (built from a
// QCustomPlot *).
template<typename Model, typename Plot> class FigureDescriptorOf final : public FigureDescriptor
{
public:
    const FigureModel &model() const override { return m_model; }
    std::unique_ptr<FigurePlot> build(QCustomPlot *plot) const override
    {
        // A figure prints its numbers in one locale on every machine (docs/ARCHITECTURE.md,
        // Exporting): QCustomPlot's tick labels follow the plot widget's, the user's unless set.
        plot->setLocale(QLocale::c());
        return std::make_unique<Plot>(plot);
    }
    std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data, const FigureRequest &request) const override
    {
        if constexpr (requires { Plot::prepare(data, request); })
            return Plot::prepare(data, request);
        else if constexpr (requires { Plot::prepare(data); })
            return Plot::prepare(data);
        else
            return nullptr;
    }

private:
    Model m_model;
};

} // namespace posenc
