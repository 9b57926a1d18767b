// What no first screen needs, loaded once right after it is drawn (rest.ts): the rest of Mantine's styles and
// the placement and dragging of dialogs (spec 01 §9).
import './rest.css';
import { placeDialogs } from '../../shared/ui/dialogs';

placeDialogs();
