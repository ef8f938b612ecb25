#include "ShadeLabels.h"

#include "DirectLabelCurves.h"
#include "DirectLabelPlaces.h"
#include "DirectLabelScene.h"
#include "DirectLabels.h"
#include "KeyAside.h"
#include "SwatchLegend.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::ShadeLabels {

namespace {

// The properties of a shade's label: the swatch colour it names, and its forms, longest first.
constexpr char kSwatchProperty[] = "posencShadeSwatch";
constexpr char kFormsProperty[] = "posencShadeForms";
// Between a shade's label and the curves and lines it keeps off.
constexpr double kInset = 1.0;
constexpr double kStep = 1.0;
// Between a shade's label and its shade's edges, as a curve's label keeps off its curve, where
// they stand within the plot (a unit was flush against the edge).
constexpr double kEdge = DirectLabels::kGap;

using DirectLabels::shown;

// Whether `element` is drawn: it and every layout holding it visible and not given up for room.
bool drawn(const QCPLayoutElement *element)
{
    for (const QCPLayoutElement *at = element; at; at = at->layout())
        if (!shown(at))
            return false;
    return element != nullptr;
}

// The shades drawn of `colour`, in the order of the plot's items.
QList<QCPItemRect *> shadesOf(const QCustomPlot &plot, const QColor &colour)
{
    QList<QCPItemRect *> shades;
    for (int i = 0; i < plot.itemCount(); ++i) {
        auto *shade = qobject_cast<QCPItemRect *>(plot.item(i));
        if (shade && shown(shade) && shade->clipToAxisRect() && drawn(shade->clipAxisRect())
            && shade->brush().style() == Qt::SolidPattern && shade->brush().color() == colour)
            shades.append(shade);
    }
    return shades;
}

// The part of `shade` drawn within its plot, in layout units.
QRectF extentOf(const QCPItemRect *shade)
{
    const QRectF box = QRectF(shade->topLeft->pixelPosition(), shade->bottomRight->pixelPosition()).normalized();
    return box.intersected(QRectF(shade->clipAxisRect()->rect()));
}

QList<QCPItemText *> labelsOf(const QCustomPlot &plot)
{
    QList<QCPItemText *> labels;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot.item(i));
            text && swatchOf(text).isValid() && !FigureRoom::Changes::isHidden(text))
            labels.append(text);
    return labels;
}

// The texts a shade's label keeps clear of on its own: all but the shades' labels and the curves'.
QList<const QCPItemText *> notKeptOff(const QCustomPlot &plot)
{
    QList<const QCPItemText *> texts;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot.item(i));
            text && (swatchOf(text).isValid() || DirectLabels::named(text)))
            texts.append(text);
    return texts;
}

struct Place
{
    QCPItemRect *shade = nullptr;
    QString text;
    QRectF box;
};

// Where a label of `forms` stands in a shade of `colour`: the longest form that fits in one, at
// the highest place of it free, nearest its middle; none where no form fits.
class Placer
{
public:
    Placer(const QCustomPlot &plot, const QFont &font)
        : m_plot(plot)
        , m_font(font)
        , m_placing(notKeptOff(plot))
    { }

    std::optional<Place> find(const QColor &colour, const QStringList &forms)
    {
        const QList<QCPItemRect *> shades = shadesOf(m_plot, colour);
        for (const QString &form : forms)
            for (QCPItemRect *shade : shades)
                if (const auto box = spotIn(shade, DirectLabels::sizeOf(m_font, form))) {
                    m_taken.append(*box);
                    return Place {shade, form, *box};
                }
        return std::nullopt;
    }

private:
    std::optional<QRectF> spotIn(QCPItemRect *shade, QSizeF size)
    {
        QCPAxisRect *rect = shade->clipAxisRect();
        auto found = m_scenes.find(rect);
        if (found == m_scenes.end())
            found = m_scenes.emplace(rect, DirectLabels::sceneOf(rect, m_placing)).first;
        const DirectLabels::Scene &scene = found->second;
        if (scene.covered)
            return std::nullopt;
        const QRectF room = extentOf(shade)
                                .adjusted(kEdge, kEdge, -kEdge, -kEdge)
                                .intersected(QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset));
        if (size.width() > room.width() || size.height() > room.height())
            return std::nullopt;
        const double spare = room.width() - size.width();
        QList<double> lefts {room.left() + spare / 2.0};
        for (double off = kStep; off <= spare / 2.0; off += kStep)
            lefts << room.left() + spare / 2.0 - off << room.left() + spare / 2.0 + off;
        for (double top = room.top(); top + size.height() <= room.bottom(); top += kStep)
            for (const double left : lefts) {
                const QRectF box(QPointF(left, top), size);
                if (standsClear(scene, box))
                    return box;
            }
        return std::nullopt;
    }

    bool standsClear(const DirectLabels::Scene &scene, const QRectF &box) const
    {
        return !scene.othersMeet(box, {}, kInset) && !scene.meetsText(box)
            && std::none_of(m_taken.begin(), m_taken.end(), [&](const QRectF &other) {
                   return other.intersects(box.adjusted(-DirectLabels::kApart, -DirectLabels::kApart,
                                                        DirectLabels::kApart, DirectLabels::kApart));
               });
    }

    const QCustomPlot &m_plot;
    QFont m_font;
    QList<const QCPItemText *> m_placing;
    std::map<QCPAxisRect *, DirectLabels::Scene> m_scenes;
    QList<QRectF> m_taken;
};

void put(QCPItemText *text, const Place &place)
{
    QCPAxis *key = place.shade->topLeft->keyAxis();
    QCPAxis *value = place.shade->topLeft->valueAxis();
    text->setClipAxisRect(place.shade->clipAxisRect());
    text->position->setAxes(key, value);
    text->position->setType(QCPItemPosition::ptPlotCoords);
    const QPointF centre = place.box.center();
    text->position->setCoords(key->pixelToCoord(centre.x()), value->pixelToCoord(centre.y()));
    text->setText(place.text);
    text->setVisible(true);
}

// WCAG 2's relative luminance of an sRGB colour.
double luminanceOf(const QColor &colour)
{
    const auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF());
}

} // namespace

bool nameable(QCPAbstractLegendItem *item)
{
    const QColor colour = SwatchLegend::color(item);
    return colour.isValid() && !SwatchLegend::label(item).isEmpty() && item->parentPlot()
        && !shadesOf(*item->parentPlot(), colour).isEmpty();
}

bool labelable(const QCPLegend *legend)
{
    bool swatch = false;
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem *item = legend->item(i);
        if (!item)
            continue;
        const bool shade = nameable(item);
        if (!shade && !DirectLabels::labelable(item))
            return false;
        swatch |= shade;
    }
    return swatch;
}

QStringList formsOf(const QString &label)
{
    QStringList forms {label};
    static const QRegularExpression parts(u" / |: |, | \\("_s);
    if (const qsizetype at = label.indexOf(parts); at > 0)
        forms.append(label.left(at));
    return forms;
}

QList<QCPItemText *> make(QCPLegend *legend, const QList<QStringList> &forms, bool unplaced)
{
    QCustomPlot *plot = legend->parentPlot();
    QList<QCPAbstractLegendItem *> swatches;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i); item && nameable(item))
            swatches.append(item);
    if (swatches.isEmpty() || swatches.size() != forms.size())
        return {};
    // Placed on the layout the plots will have without the key's row: the key laid out as if it
    // took none of it, for now (as DirectLabels::make does).
    const KeyAside aside(legend);
    Placer placer(*plot, legend->font());
    QList<std::optional<Place>> places;
    for (qsizetype i = 0; i < swatches.size(); ++i)
        places.append(placer.find(SwatchLegend::color(swatches[i]), forms[i]));
    const bool placed = std::all_of(places.begin(), places.end(), [](const auto &place) { return place.has_value(); });
    QList<QCPItemText *> texts;
    if (placed || unplaced)
        for (qsizetype i = 0; i < swatches.size(); ++i) {
            const QColor colour = SwatchLegend::color(swatches[i]);
            auto *text = new QCPItemText(plot);
            text->setClipToAxisRect(true);
            text->setPositionAlignment(Qt::AlignCenter);
            text->setTextAlignment(Qt::AlignCenter);
            text->setPadding(QMargins());
            text->setFont(legend->font());
            text->setColor(textColourOf(colour));
            text->setProperty(kSwatchProperty, colour);
            text->setProperty(kFormsProperty, forms[i]);
            text->setText(forms[i].constFirst());
            if (placed)
                put(text, *places[i]);
            else
                text->setVisible(false);
            texts.append(text);
        }
    return texts;
}

bool place(QCustomPlot *plot)
{
    const QList<QCPItemText *> labels = labelsOf(*plot);
    const bool allShown = std::all_of(labels.begin(), labels.end(), [](QCPItemText *text) { return text->visible(); });
    if (labels.isEmpty() || (allShown && clear(*plot)))
        return false;
    Placer placer(*plot, labels.constFirst()->font());
    QList<Place> places;
    for (QCPItemText *text : labels) {
        const auto found = placer.find(swatchOf(text), text->property(kFormsProperty).toStringList());
        if (!found) {
            for (QCPItemText *label : labels)
                label->setVisible(false);
            return true;
        }
        places.append(*found);
    }
    for (qsizetype i = 0; i < labels.size(); ++i)
        put(labels[i], places[i]);
    return true;
}

bool clear(const QCustomPlot &plot)
{
    const QList<const QCPItemText *> placing = notKeptOff(plot);
    std::map<QCPAxisRect *, DirectLabels::Scene> scenes;
    for (const QCPItemText *text : labelsOf(plot)) {
        if (!shown(text))
            continue;
        QCPAxisRect *rect = text->clipAxisRect();
        if (!drawn(rect))
            return false;
        const QRectF box = DirectLabels::boxOf(text);
        // Within a shade of its colour, a margin off its edges (asked half a unit short).
        const double edge = kEdge - 0.5;
        const QList<QCPItemRect *> shades = shadesOf(plot, swatchOf(text));
        if (std::none_of(shades.begin(), shades.end(), [&](const QCPItemRect *shade) {
                return shade->clipAxisRect() == rect
                    && extentOf(shade).adjusted(edge, edge, -edge, -edge).contains(box);
            }))
            return false;
        auto found = scenes.find(rect);
        if (found == scenes.end())
            found = scenes.emplace(rect, DirectLabels::sceneOf(rect, placing)).first;
        const QRectF inner = box.adjusted(0.5, 0.5, -0.5, -0.5);
        if (found->second.othersMeet(inner, {}) || found->second.meetsText(inner.adjusted(1, 1, -1, -1)))
            return false;
    }
    return true;
}

QColor swatchOf(const QCPItemText *text)
{
    const QVariant colour = text->property(kSwatchProperty);
    return colour.isValid() ? colour.value<QColor>() : QColor();
}

QColor textColourOf(QColor swatch)
{
    swatch.setAlpha(255);
    // WCAG's 4.5 : 1 against white, the ground a shade leaves nearly white.
    for (int i = 0; i < 20 && (1.05) / (luminanceOf(swatch) + 0.05) < 4.5; ++i)
        swatch = swatch.darker(115);
    return swatch;
}

} // namespace posenc::ShadeLabels
