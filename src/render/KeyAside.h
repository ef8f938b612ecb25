#pragma once

#include "QCustomPlot.h"

namespace posenc {

// The page laid out as if `legend` took none of it (no margins, a height of 1), for labels placed on
// the plots the page will have once the key goes (DirectLabels::make, ShadeLabels::make); the key as
// it was, and the page laid out again, when this goes out of scope.
class KeyAside
{
public:
    explicit KeyAside(QCPLegend *legend)
        : m_legend(legend)
        , m_least(legend->minimumSize())
        , m_most(legend->maximumSize())
        , m_margins(legend->margins())
        , m_sides(legend->autoMargins())
    {
        legend->setAutoMargins(QCP::msNone);
        legend->setMargins(QMargins());
        legend->setMinimumSize(1, 1);
        legend->setMaximumSize(m_most.width(), 1);
        layOut(legend->parentPlot());
    }
    ~KeyAside()
    {
        m_legend->setMinimumSize(m_least);
        m_legend->setMaximumSize(m_most);
        m_legend->setMargins(m_margins);
        m_legend->setAutoMargins(m_sides);
        layOut(m_legend->parentPlot());
    }
    KeyAside(const KeyAside &) = delete;
    KeyAside &operator=(const KeyAside &) = delete;

    // The page's layout brought up to date: its elements' sizes, margins and places.
    static void layOut(QCustomPlot *plot)
    {
        for (const auto phase :
             {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
            plot->plotLayout()->update(phase);
    }

private:
    QCPLegend *m_legend;
    QSize m_least, m_most;
    QMargins m_margins;
    QCP::MarginSides m_sides;
};

} // namespace posenc
