#include "Accessibility.h"

#include <QAbstractItemView>
#include <QAccessibleWidget>
#include <QComboBox>
#include <QKeySequence>
#include <QLineEdit>

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

void install()
{
    static const bool installed = [] {
        QAccessible::installFactory(interfaceFor);
        return true;
    }();
    Q_UNUSED(installed);
}

void announce(QWidget *widget, const QString &text)
{
    // QWidget sends the DescriptionChanged event itself (at-spi's
    // object:property-change:accessible-description), once a change.
    widget->setAccessibleDescription(text);
}

} // namespace posenc::Accessibility
