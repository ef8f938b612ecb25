#include "SwatchLegend.h"

#include "DrawnText.h"
#include "MeasuredText.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

const QColor kHatchColor(40, 40, 40, 170);
const QColor kWashColor(255, 255, 255, 110);

// A legend item drawn as QCPPlottableLegendItem draws a plottable's, with a swatch for its icon.
class SwatchItem final : public QCPAbstractLegendItem
{
public:
    SwatchItem(QCPLegend *legend, Swatch swatch)
        : QCPAbstractLegendItem(legend)
        , m_swatch(std::move(swatch))
    {
        setSelectable(false);
        // Room below the text for descenders drawn at an export's scale, whose hinted glyphs
        // may reach a little lower than the screen's metrics say.
        setMargins(QMargins(0, 1, 0, 2));
    }

protected:
    void draw(QCPPainter *painter) override
    {
        painter->setFont(mFont);
        painter->setPen(QPen(mTextColor));
        const QSize icon = mParentLegend->iconSize();
        const QRect text = DrawnText::boundingRect(*painter, icon.height(), m_swatch.label);
        const int height = std::max(text.height(), icon.height());
        DrawnText::draw(
            *painter,
            QRect(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y(), text.width(), height),
            Qt::TextDontClip, m_swatch.label);
        // The swatch centred on the line of text beside it.
        const QRect swatch(QPoint(mRect.x(), mRect.y() + (height - icon.height()) / 2), icon);
        painter->fillRect(swatch, m_swatch.color);
        if (m_swatch.hatch != Qt::NoBrush) {
            painter->fillRect(swatch, SwatchLegend::washColor());
            painter->fillRect(swatch, SwatchLegend::hatchBrush(m_swatch.hatch));
        }
        painter->setPen(QPen(QColor(90, 90, 90), 0));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(swatch);
    }

    QSize minimumOuterSizeHint() const override
    {
        const QSize icon = mParentLegend->iconSize();
        const QRect text = MeasuredText::boundingRect(mFont, icon.height(), m_swatch.label);
        return {icon.width() + mParentLegend->iconTextPadding() + text.width() + mMargins.left() + mMargins.right(),
                std::max(text.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
    }

public:
    const Swatch &swatch() const { return m_swatch; }
    void setLabel(const QString &label) { m_swatch.label = label; }

private:
    Swatch m_swatch;
};

} // namespace

namespace SwatchLegend {

QCPLegend *create(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col)
{
    auto *legend = new QCPLegend;
    layout->addElement(row, col, legend);
    legend->setLayer(u"legend"_s);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    legend->setIconSize(14, 10);
    // Narrow, as the colorbar it stands in for.
    legend->setMargins(QMargins(2, 2, 2, 2));
    legend->setIconTextPadding(4);
    QFont font = plot->font();
    legend->setFont(font);
    return legend;
}

void set(QCPLegend *legend, const QList<Swatch> &swatches)
{
    legend->clearItems();
    for (const Swatch &swatch : swatches)
        legend->addItem(new SwatchItem(legend, swatch));
    // A key of no swatches holds no room, and takes none from its row: a grid of no cells has its
    // margins for its most width (QCPLayoutGrid::maximumOuterSizeHint), which held the page's
    // column, and every row in it, to the least its figure needs (dropout-on-sum's window for a
    // model of p = 0, its marks' key empty, left a band a fifth of its width blank right of the
    // colour bars). One empty cell, of no least size and no most, lets the row be as wide as the page.
    if (swatches.isEmpty())
        legend->expandTo(1, 1);
}

QString label(const QCPAbstractLegendItem *item)
{
    const auto *swatch = dynamic_cast<const SwatchItem *>(item);
    return swatch ? swatch->swatch().label : QString();
}

QColor color(const QCPAbstractLegendItem *item)
{
    const auto *swatch = dynamic_cast<const SwatchItem *>(item);
    return swatch ? swatch->swatch().color : QColor();
}

bool setLabel(QCPAbstractLegendItem *item, const QString &label)
{
    auto *swatch = dynamic_cast<SwatchItem *>(item);
    if (!swatch)
        return false;
    swatch->setLabel(label);
    return true;
}

QCPAbstractLegendItem *add(QCPLegend *legend, const Swatch &swatch)
{
    auto *item = new SwatchItem(legend, swatch);
    legend->addItem(item);
    return item;
}

QBrush hatchBrush(Qt::BrushStyle hatch)
{
    return QBrush(kHatchColor, hatch);
}

QColor washColor()
{
    return kWashColor;
}

} // namespace SwatchLegend

} // namespace posenc
