#pragma once

#include "PlotView.h"

#include "render/figures/CurvesFigure.h"

class QLineEdit;

namespace posenc {

// PE[:, j] against position for the columns the user lists (a few low, middle and high
// ones by default); the x axis zooms and pans, and the curves are evaluated for what is shown.
class CurvesView : public PlotView
{
    Q_OBJECT

public:
    explicit CurvesView(QWidget *parent = nullptr);

    // The columns drawn: the list typed in, or the defaults when it is empty.
    std::vector<std::int64_t> columns() const;
    // Sets the list ("0,1,64:66"); false, with the field marked, when it does not parse.
    bool setColumnsText(const QString &text);
    // The list as typed (empty for the defaults).
    QString columnsText() const;
    // The visible positions (a session keeps them).
    QCPRange positionRange() const;
    void setPositionRange(const QCPRange &range);
    const CurvesData *data() const { return m_data.get(); }

    void setCursorPosition(std::optional<std::int64_t> position) override;
    void resetView() override;
    std::optional<FigureOptions> figureOptions() const override;
    std::optional<TableRequest> tableRequest() const override;

protected:
    ComputeScheduler::Job makeJob() override;
    void paramsChanged(bool shapeChanged) override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel) const override;
    bool figureDiffers(const Params &before, const Params &after) const override;

private:
    void show(const std::shared_ptr<const CurvesData> &data, quint64 serial);
    void columnsEdited();

    CurvesFigure m_figure;
    QLineEdit *m_columnsEdit;
    QCPItemStraightLine *m_cursor;
    std::vector<std::int64_t> m_columns;
    std::shared_ptr<const CurvesData> m_data;
};

} // namespace posenc
