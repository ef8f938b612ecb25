#include "Accessibility.h"

#include <QAbstractItemView>
#include <QAccessibleWidget>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QKeySequence>
#include <QLineEdit>
#include <QPointer>
#include <QTextDocumentFragment>

using namespace Qt::StringLiterals;

namespace posenc::Accessibility {

namespace {

// A combo box as Qt's own interface presents it (its list, its line edit, its actions), but
// named by its label, its entry its value.
class LabelledComboBox final : public QAccessibleWidget
{
public:
    explicit LabelledComboBox(QWidget *widget)
        : QAccessibleWidget(widget, QAccessible::ComboBox)
    { }

    QString text(QAccessible::Text t) const override
    {
        QString text;
        switch (t) {
        case QAccessible::Name:
            text = QAccessibleWidget::text(t); // the accessible name, else the buddy's text
            if (text.isEmpty())
                text = entry();
            break;
        case QAccessible::Value:
            text = entry();
            break;
        case QAccessible::Accelerator:
            text = QKeySequence(Qt::Key_Down).toString(QKeySequence::NativeText);
            break;
        default:
            text = QAccessibleWidget::text(t);
            break;
        }
        return text;
    }

    int childCount() const override { return comboBox()->isEditable() ? 2 : 1; }
    QAccessibleInterface *child(int index) const override
    {
        if (index == 0)
            return QAccessible::queryAccessibleInterface(comboBox()->view());
        if (index == 1 && comboBox()->isEditable())
            return QAccessible::queryAccessibleInterface(comboBox()->lineEdit());
        return nullptr;
    }
    int indexOfChild(const QAccessibleInterface *child) const override
    {
        if (child->object() == comboBox()->view())
            return 0;
        if (comboBox()->isEditable() && child->object() == comboBox()->lineEdit())
            return 1;
        return -1;
    }
    QAccessibleInterface *childAt(int x, int y) const override
    {
        if (comboBox()->isEditable() && comboBox()->lineEdit()->rect().contains(x, y))
            return child(1);
        return nullptr;
    }

    QStringList actionNames() const override { return {showMenuAction(), pressAction()}; }
    QString localizedActionDescription(const QString &action) const override
    {
        return action == showMenuAction() || action == pressAction()
            ? QComboBox::tr("Open the combo box selection popup")
            : QString();
    }
    void doAction(const QString &action) override
    {
        if (action != showMenuAction() && action != pressAction())
            return;
        if (comboBox()->view()->isVisible())
            comboBox()->hidePopup();
        else
            comboBox()->showPopup();
    }
    QStringList keyBindingsForAction(const QString &) const override { return {}; }

private:
    QComboBox *comboBox() const { return static_cast<QComboBox *>(object()); }
    QString entry() const
    {
        return comboBox()->isEditable() ? comboBox()->lineEdit()->text() : comboBox()->currentText();
    }
};

// A tooltip is rich text ("<b>d_model</b>&nbsp;<code>--d-model N</code><br>..."), and Qt's
// interfaces read a widget's tooltip as its description where it has none of its own: a screen
// reader read the markup out. Each tooltip set gives its widget the tooltip's plain text as its
// description, unless the widget was given a description of its own (a plot's cell readout). A
// hidden widget, which no reader meets, is described when it is shown: the parameters' formulas
// in the tooltips of every family's controls, most of them hidden, change with d_model or max_len,
// and reading their markup at every change of a control took a twentieth of the window's time.
class DescriptionsFromTooltips final : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        static const char *const kStale = "posencDescriptionStale";
        if (event->type() == QEvent::ToolTipChange && watched->isWidgetType()) {
            auto *widget = static_cast<QWidget *>(watched);
            if (widget->isVisible())
                describe(widget);
            else
                widget->setProperty(kStale, true);
        } else if (event->type() == QEvent::Show && watched->isWidgetType() && watched->property(kStale).toBool()) {
            watched->setProperty(kStale, QVariant());
            describe(static_cast<QWidget *>(watched));
        }
        return QObject::eventFilter(watched, event);
    }

private:
    static void describe(QWidget *widget)
    {
        static const char *const kFromTooltip = "posencDescriptionFromTooltip";
        const QString own = widget->accessibleDescription();
        if (!own.isEmpty() && own != widget->property(kFromTooltip).toString())
            return;
        const QString text = plainText(widget->toolTip());
        widget->setProperty(kFromTooltip, text);
        if (own != text)
            widget->setAccessibleDescription(text);
    }
};

QAccessibleInterface *interfaceFor(const QString &className, QObject *object)
{
    if (!object || !object->isWidgetType())
        return nullptr;
    auto *widget = static_cast<QWidget *>(object);
    if (className == u"QComboBox"_s)
        return new LabelledComboBox(widget);
    // Its name is the figure's (FigureView), its description what the keyboard's cursor reads.
    if (className == u"QCustomPlot"_s)
        return new QAccessibleWidget(widget, QAccessible::Chart);
    return nullptr;
}

} // namespace

QString plainText(const QString &text)
{
    if (!Qt::mightBeRichText(text))
        return text;
    QString plain = QTextDocumentFragment::fromHtml(text).toPlainText();
    // Line and paragraph breaks as a reader reads them; spaces that must not break as spaces.
    plain.replace(QChar::LineSeparator, u'\n').replace(QChar::ParagraphSeparator, u'\n');
    plain.replace(QChar::Nbsp, u' ');
    return plain.trimmed();
}

void install()
{
    static const bool installed = [] {
        QAccessible::installFactory(interfaceFor);
        return true;
    }();
    Q_UNUSED(installed);
    // Once the application exists, and again for a new one.
    static QPointer<DescriptionsFromTooltips> descriptions;
    if (!descriptions && qApp) {
        descriptions = new DescriptionsFromTooltips(qApp);
        qApp->installEventFilter(descriptions);
    }
}

void announce(QWidget *widget, const QString &text)
{
    // QWidget sends the DescriptionChanged event itself (at-spi's
    // object:property-change:accessible-description), once a change.
    widget->setAccessibleDescription(text);
}

} // namespace posenc::Accessibility
