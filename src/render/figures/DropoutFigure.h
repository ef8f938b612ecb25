#pragma once

#include "render/data/DropoutData.h"
#include "render/HeatmapPanel.h"

#include "render/QCustomPlot.h"

#include <memory>

namespace posenc {

// The dropout view: the keep mask and the output Y of the same cells side by side, with
// the measured drop fraction against p and the 1/(1-p) factor stated.
class DropoutFigure
{
public:
    explicit DropoutFigure(QCustomPlot *plot);

    void setData(const DropoutData &data);
    HeatmapPanel &maskPanel() { return *m_mask; }
    HeatmapPanel &outputPanel() { return *m_output; }
    const HeatmapPanel &maskPanel() const { return *m_mask; }
    const HeatmapPanel &outputPanel() const { return *m_output; }

private:
    QCPTextElement *m_title;
    QCPTextElement *m_summary;
    std::unique_ptr<HeatmapPanel> m_mask;
    std::unique_ptr<HeatmapPanel> m_output;
};

} // namespace posenc
