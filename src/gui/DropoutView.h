#pragma once

#include "PlotView.h"

#include "render/figures/DropoutFigure.h"

namespace posenc {

// The chosen dropout variant: mask and output side by side over the same cells, which
// zoom and pan together, with the measured drop fraction against p.
class DropoutView : public PlotView
{
    Q_OBJECT

public:
    explicit DropoutView(QWidget *parent = nullptr);

    const DropoutData *data() const { return m_data.get(); }
    DropoutFigure &figure() { return m_figure; }
    void setCursorPosition(std::optional<std::int64_t> position) override;
    void resetView() override;
    std::optional<FigureOptions> figureOptions() const override;
    std::optional<TableRequest> tableRequest() const override;

protected:
    ComputeScheduler::Job makeJob() override;
    void paramsChanged(bool shapeChanged) override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel) const override;

private:
    void show(const std::shared_ptr<const DropoutData> &data, quint64 serial, Detail detail);

    DropoutFigure m_figure;
    QCPItemStraightLine *m_maskCursor;
    QCPItemStraightLine *m_outputCursor;
    std::shared_ptr<const DropoutData> m_data;
};

} // namespace posenc
