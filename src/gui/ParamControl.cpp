#include "ParamControl.h"

#include "core/NumberText.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A Log2 slider's position v stands for 2^(v / 10).
constexpr double kLogSteps = 10.0;
// A probability's slider moves in thousandths.
constexpr double kProbabilitySteps = 1000.0;

int toInt(std::int64_t v)
{
    return static_cast<int>(
        std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

int logPosition(std::int64_t value)
{
    return static_cast<int>(std::lround(kLogSteps * std::log2(static_cast<double>(std::max<std::int64_t>(value, 1)))));
}

} // namespace

ParamControl::ParamControl(const ParamSpec &row, const ParamSpec *custom, QWidget *parent)
    : QObject(parent)
    , m_row(row)
    , m_custom(custom)
    , m_label(new QLabel(QCoreApplication::translate("ParamTable", qPrintable(row.label)), parent))
    , m_field(new QWidget(parent))
    , m_error(new QLabel(parent))
{
    m_label->setObjectName(row.objectName + u"Label"_s);
    m_error->setObjectName(row.objectName + u"Error"_s);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(u"color: #b03a2e;"_s);
    m_error->setVisible(false);
    build();
}

void ParamControl::build()
{
    auto *layout = new QHBoxLayout(m_field);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    const QString name = m_row.objectName;
    // What a screen reader says: the label (its first input is also its buddy), and which input
    // of the row it is. A spin box's text field, which takes its focus, says the same.
    const QString spoken = m_label->text().remove(u'&');
    const auto add = [&](QWidget *w, const QString &suffix, int stretch = 0) {
        w->setObjectName(name + suffix);
        layout->addWidget(w, stretch);
        m_inputs.append(w);
        const bool first = m_label->buddy() == nullptr;
        if (first)
            m_label->setBuddy(w);
        w->setAccessibleName(first ? spoken : tr("%1, %2").arg(spoken, suffix.toLower()));
        if (auto *spin = qobject_cast<QAbstractSpinBox *>(w))
            if (auto *edit = spin->findChild<QLineEdit *>())
                edit->setAccessibleName(w->accessibleName());
    };
    switch (m_row.kind) {
    case ParamKind::Integer:
    case ParamKind::Unsigned:
    case ParamKind::OptionalInteger: {
        auto *spin = new QSpinBox(m_field);
        spin->setRange(toInt(m_row.controlMin), toInt(m_row.controlMax));
        spin->setKeyboardTracking(false);
        if (m_row.kind == ParamKind::OptionalInteger)
            spin->setSpecialValueText(m_row.unsetText);
        add(spin, u"Spin"_s);
        connect(spin, &QSpinBox::valueChanged, this, &ParamControl::edited);
        if (m_row.slider != SliderScale::None) {
            auto *slider = new QSlider(Qt::Horizontal, m_field);
            const bool log = m_row.slider == SliderScale::Log2;
            slider->setRange(log ? 0 : 1, toInt(m_row.sliderMax));
            add(slider, u"Slider"_s, 1);
            // The slider drives the spin box, which is what is read.
            connect(slider, &QSlider::valueChanged, spin,
                    [spin, log](int v) { spin->setValue(log ? toInt(std::llround(std::exp2(v / kLogSteps))) : v); });
            connect(spin, &QSpinBox::valueChanged, slider, [slider, log](int v) {
                const QSignalBlocker block(slider);
                slider->setValue(log ? logPosition(v) : v);
            });
        }
        if (m_row.kind == ParamKind::Unsigned && !m_row.controlText.isEmpty()) {
            auto *button = new QPushButton(tr(qPrintable(m_row.controlText)), m_field);
            button->setObjectName(u"new"_s + name.left(1).toUpper() + name.mid(1) + u"Button"_s);
            layout->addWidget(button);
            m_inputs.append(button);
            connect(button, &QPushButton::clicked, spin,
                    [spin] { spin->setValue(static_cast<int>(QRandomGenerator::global()->bounded(spin->maximum()))); });
        }
        break;
    }
    case ParamKind::Probability: {
        auto *spin = new QDoubleSpinBox(m_field);
        spin->setDecimals(3);
        spin->setRange(0.0, 1.0);
        spin->setSingleStep(0.01);
        spin->setKeyboardTracking(false);
        add(spin, u"Spin"_s);
        auto *slider = new QSlider(Qt::Horizontal, m_field);
        slider->setRange(0, toInt(m_row.sliderMax));
        add(slider, u"Slider"_s, 1);
        connect(slider, &QSlider::valueChanged, spin, [spin](int v) { spin->setValue(v / kProbabilitySteps); });
        connect(spin, &QDoubleSpinBox::valueChanged, slider, [slider](double v) {
            const QSignalBlocker block(slider);
            slider->setValue(static_cast<int>(std::lround(v * kProbabilitySteps)));
        });
        connect(spin, &QDoubleSpinBox::valueChanged, this, &ParamControl::edited);
        break;
    }
    case ParamKind::Number:
    case ParamKind::IndexList:
    case ParamKind::Text:
    case ParamKind::OptionalNumber:
    case ParamKind::NumberList:
        m_edit = new QLineEdit(m_field);
        // An empty field is an unset number, or a list of no value.
        if (m_row.kind == ParamKind::OptionalNumber)
            m_edit->setPlaceholderText(m_row.unsetText);
        else if (m_row.kind == ParamKind::NumberList)
            m_edit->setPlaceholderText(tr("none"));
        add(m_edit, u"Edit"_s, 1);
        connect(m_edit, &QLineEdit::editingFinished, this, &ParamControl::edited);
        break;
    case ParamKind::Choice:
    case ParamKind::ChoiceOrNumber: {
        m_combo = new QComboBox(m_field);
        const QStringList &labels = m_row.choiceLabels.isEmpty() ? m_row.choices : m_row.choiceLabels;
        for (const QString &text : labels)
            m_combo->addItem(QCoreApplication::translate("ParamTable", qPrintable(text)));
        if (m_row.kind == ParamKind::ChoiceOrNumber)
            m_combo->addItem(QCoreApplication::translate("ParamTable", qPrintable(m_row.customLabel)));
        add(m_combo, u"Combo"_s);
        connect(m_combo, &QComboBox::currentIndexChanged, this, &ParamControl::edited);
        if (m_row.kind == ParamKind::ChoiceOrNumber && m_custom) {
            m_edit = new QLineEdit(m_field);
            m_edit->setObjectName(m_custom->objectName + u"Edit"_s);
            // Named as the chooser's entry that enables it: "scale, custom", "init, custom σ".
            m_edit->setAccessibleName(
                tr("%1, %2").arg(spoken, QCoreApplication::translate("ParamTable", qPrintable(m_row.customLabel))));
            layout->addWidget(m_edit, 1);
            connect(m_edit, &QLineEdit::editingFinished, this, &ParamControl::edited);
        }
        break;
    }
    case ParamKind::Switch: {
        auto *check = new QCheckBox(QCoreApplication::translate("ParamTable", qPrintable(m_row.controlText)), m_field);
        add(check, u"Check"_s, 1);
        connect(check, &QCheckBox::toggled, this, &ParamControl::edited);
        break;
    }
    case ParamKind::Matrix: {
        auto *source = new QLabel(m_field);
        source->setWordWrap(true);
        source->setTextInteractionFlags(Qt::TextSelectableByMouse);
        add(source, u"Source"_s, 1);
        if (!m_row.controlText.isEmpty()) {
            auto *button = new QPushButton(tr(qPrintable(m_row.controlText)), m_field);
            add(button, u"Button"_s);
            connect(button, &QPushButton::clicked, this, [this] { emit loadRequested(m_row.key); });
        }
        break;
    }
    }
}

QList<QWidget *> ParamControl::widgets() const
{
    return QList<QWidget *> {m_label} + m_inputs;
}

QList<QWidget *> ParamControl::customWidgets() const
{
    if (m_row.kind == ParamKind::ChoiceOrNumber && m_edit)
        return {m_edit};
    return {};
}

void ParamControl::show(const Params &params)
{
    std::vector<QSignalBlocker> blockers;
    for (QWidget *w : m_inputs + customWidgets())
        blockers.emplace_back(w);
    const ParamValue value = m_row.value(params);
    switch (m_row.kind) {
    case ParamKind::Integer:
    case ParamKind::Unsigned:
    case ParamKind::OptionalInteger: {
        std::int64_t v = m_row.controlMin; // auto
        if (const auto *i = std::get_if<std::int64_t>(&value))
            v = *i;
        else if (const auto *u = std::get_if<std::uint64_t>(&value))
            v = static_cast<std::int64_t>(std::min<std::uint64_t>(*u, std::uint64_t(m_row.controlMax)));
        auto *spin = static_cast<QSpinBox *>(m_inputs[0]);
        spin->setValue(toInt(v));
        if (m_row.slider != SliderScale::None)
            static_cast<QSlider *>(m_inputs[1])
                ->setValue(m_row.slider == SliderScale::Log2 ? logPosition(v) : toInt(v));
        break;
    }
    case ParamKind::Probability: {
        const double p = std::get<double>(value);
        static_cast<QDoubleSpinBox *>(m_inputs[0])->setValue(p);
        static_cast<QSlider *>(m_inputs[1])->setValue(static_cast<int>(std::lround(p * kProbabilitySteps)));
        break;
    }
    case ParamKind::Number:
    case ParamKind::IndexList:
    case ParamKind::Text:
        m_edit->setText(m_row.text(value));
        m_edit->setModified(false);
        break;
    case ParamKind::OptionalNumber:
    case ParamKind::NumberList: {
        // Unset and the empty list show as the placeholder; a number as its shortest exact text.
        const auto *d = std::get_if<double>(&value);
        const auto *list = std::get_if<std::vector<double>>(&value);
        const bool empty = std::holds_alternative<std::monostate>(value) || (list && list->empty());
        m_edit->setText(empty ? QString() : d ? NumberText::exact(*d) : m_row.text(value));
        m_edit->setModified(false);
        break;
    }
    case ParamKind::Choice:
        m_combo->setCurrentIndex(static_cast<int>(m_row.choices.indexOf(std::get<QString>(value))));
        break;
    case ParamKind::ChoiceOrNumber:
        if (const auto *word = std::get_if<QString>(&value)) {
            m_combo->setCurrentIndex(static_cast<int>(m_row.choices.indexOf(*word)));
            if (m_edit && m_custom)
                m_edit->setText(m_custom->text(params));
        } else {
            m_combo->setCurrentIndex(static_cast<int>(m_row.choices.size()));
            if (m_edit)
                m_edit->setText(NumberText::exact(std::get<double>(value)));
        }
        if (m_edit)
            m_edit->setModified(false);
        break;
    case ParamKind::Switch:
        static_cast<QCheckBox *>(m_inputs[0])->setChecked(std::get<bool>(value));
        break;
    case ParamKind::Matrix: {
        const QString text = m_row.text(value);
        static_cast<QLabel *>(m_inputs[0])->setText(text.isEmpty() ? tr("none") : text);
        break;
    }
    }
}

std::optional<ParamValue> ParamControl::fieldValue() const
{
    switch (m_row.kind) {
    case ParamKind::Integer:
    case ParamKind::OptionalInteger: {
        const int v = static_cast<QSpinBox *>(m_inputs[0])->value();
        if (m_row.kind == ParamKind::OptionalInteger && v == m_row.controlMin)
            return ParamValue(std::monostate {});
        return ParamValue(std::int64_t(v));
    }
    case ParamKind::Unsigned:
        return ParamValue(std::uint64_t(static_cast<QSpinBox *>(m_inputs[0])->value()));
    case ParamKind::Probability:
        return ParamValue(static_cast<QDoubleSpinBox *>(m_inputs[0])->value());
    case ParamKind::Number:
    case ParamKind::Text:
    case ParamKind::OptionalNumber: // empty reads as unset
    case ParamKind::NumberList: // empty reads as no value
        return m_row.parse(m_edit->text());
    case ParamKind::IndexList:
        // An emptied list field means no position.
        return m_row.parse(m_edit->text().trimmed().isEmpty() ? u"none"_s : m_edit->text());
    case ParamKind::Choice:
        return ParamValue(m_row.choices.value(m_combo->currentIndex()));
    case ParamKind::ChoiceOrNumber:
        if (m_combo->currentIndex() < m_row.choices.size())
            return ParamValue(m_row.choices.value(m_combo->currentIndex()));
        if (!m_edit)
            return std::nullopt;
        return m_custom ? m_custom->parse(m_edit->text()) : std::nullopt;
    case ParamKind::Switch:
        return ParamValue(static_cast<QCheckBox *>(m_inputs[0])->isChecked());
    case ParamKind::Matrix:
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<ParamError> ParamControl::assignTo(Params &params) const
{
    if (m_row.kind == ParamKind::Matrix)
        return std::nullopt; // loaded by a file dialog, not typed
    const auto value = fieldValue();
    if (!value) {
        const QString text = m_edit ? m_edit->text() : QString();
        return ParamError {m_row.key, m_row.allowed(params), QString(), ParamError::quoted(text)};
    }
    if (const auto *d = std::get_if<double>(&*value); d && m_row.kind == ParamKind::ChoiceOrNumber)
        m_row.assignCustom(params, *d);
    else
        m_row.assign(params, *value);
    return std::nullopt;
}

bool ParamControl::hasPendingEdit() const
{
    return m_edit && m_edit->isModified();
}

} // namespace posenc
