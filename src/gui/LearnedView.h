#pragma once

#include "PlotView.h"

#include "render/figures/LearnedFigure.h"

namespace posenc {

// "Learned vs sinusoidal": the loaded matrix, read as a learned position table, beside the
// sinusoidal PE of its shape (src/render/LearnedFigure). Without a loaded matrix it says how
// to load one.
class LearnedView : public PlotView
{
    Q_OBJECT

public:
    explicit LearnedView(QWidget *parent = nullptr);

    const LearnedData *data() const { return m_data.get(); }
    LearnedFigure &figure() { return m_figure; }
    void setCursorPosition(std::optional<std::int64_t> position) override;
    void resetView() override;
    // The learned figure while a loaded matrix has the rows it compares; no table to write:
    // the learned table is the file it came from.
    std::optional<FigureOptions> figureOptions() const override;

protected:
    ComputeScheduler::Job makeJob() override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel) const override;
    bool figureDiffers(const Params &before, const Params &after) const override;

private:
    void show(const std::shared_ptr<const LearnedData> &data, quint64 serial);

    LearnedFigure m_figure;
    QCPItemStraightLine *m_cursor;
    std::shared_ptr<const LearnedData> m_data;
};

} // namespace posenc
