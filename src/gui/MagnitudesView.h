#pragma once

#include "PlotView.h"

#include "render/figures/MagnitudesFigure.h"

class QLabel;

namespace posenc {

// Norms per position and RMS per column of the two parts of X, beside their closed forms.
class MagnitudesView : public PlotView
{
    Q_OBJECT

public:
    explicit MagnitudesView(QWidget *parent = nullptr);

    const MagnitudesData *data() const { return m_data.get(); }
    // A line above the plot: the loaded matrix's statistics beside the PE's (empty hides it).
    void setNote(const QString &text);
    QString note() const;
    void setCursorPosition(std::optional<std::int64_t> position) override;
    void resetView() override;
    std::optional<FigureOptions> figureOptions() const override;
    std::optional<TableRequest> tableRequest() const override;

protected:
    ComputeScheduler::Job makeJob() override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel) const override;
    bool figureDiffers(const Params &before, const Params &after) const override;

private:
    void show(const std::shared_ptr<const MagnitudesData> &data, quint64 serial, Detail detail);

    MagnitudesFigure m_figure;
    QCPItemStraightLine *m_cursor;
    QLabel *m_note;
    std::shared_ptr<const MagnitudesData> m_data;
};

} // namespace posenc
