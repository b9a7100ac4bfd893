import { render } from 'preact';
import { App } from './app';
import 'uplot/dist/uPlot.min.css';
import './app.css';

render(<App />, document.getElementById('app') as HTMLElement);
